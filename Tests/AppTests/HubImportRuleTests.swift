import Foundation
import Testing

/// The PostgreSQL hub works on PostgreSQL alone: what it shares with the SQLite hub (the protocol nodes talk to, how
/// a pushed operation is decided, sign-in secrets, photo file checks) is in Hub, over Domain and Records, and neither
/// target reaches Storage, the GRDB layer. Swift may let a target import a module it does not declare when that module
/// happens to be built, so the sources are read as well as the manifest.
@Suite struct HubImportRuleTests {
    static let storageModules: Set<String> = ["Storage", "GRDB"]

    @Test(arguments: ["PostgresHub", "Hub"])
    func hubSourcesStayOffStorage(_ target: String) throws {
        let files = try CommandLineImportRuleTests.swiftFiles(in: "Sources/\(target)")
        #expect(files.count >= 5, "\(files.map(\.lastPathComponent)) in Sources/\(target)")
        for file in files {
            let imported = Set(SwiftImports.modules(in: try String(contentsOf: file, encoding: .utf8)))
            #expect(imported.isDisjoint(with: Self.storageModules),
                    "\(target)/\(file.lastPathComponent) imports \(imported.intersection(Self.storageModules).sorted())")
        }
    }

    @Test(arguments: ["PostgresHub", "Hub"])
    func packageGivesTheHubsNoStorage(_ target: String) throws {
        let manifest = try String(contentsOf: CommandLineImportRuleTests.repositoryRoot.appendingPathComponent("Package.swift"),
                                  encoding: .utf8)
        let dependencies = try #require(PackageManifest.dependencies(ofTarget: target, in: manifest))
        #expect(Set(dependencies).isDisjoint(with: Self.storageModules), "\(target) depends on \(dependencies)")
        #expect(target != "PostgresHub" || dependencies.contains("Hub"), "PostgresHub depends on \(dependencies)")
    }
}
