import Foundation
import Testing

/// The PostgreSQL hub works on PostgreSQL alone: what it shares with the SQLite hub (the protocol nodes talk to, how
/// a pushed operation is decided, photo file checks) is in Hub, over Domain, Records and Credentials, and nothing
/// either target depends on, directly or through another, is Storage, the GRDB layer. Swift may let a target import a
/// module it does not declare when that module happens to be built, so each target's sources may import only what is
/// listed for it here.
@Suite struct HubImportRuleTests {
    static let storageModules: Set<String> = ["Storage", "GRDB"]
    static let system: Set<String> = ["Foundation", "Dispatch", "Synchronization"]
    static let allowedImports: [String: Set<String>] = [
        "Hub": system.union(["Domain", "Records", "Credentials", "Imaging", "Crypto"]),
        "PostgresHub": system.union(["CPostgres", "Domain", "Records", "Credentials", "Hub", "Logging"]),
        "Credentials": system.union(["Domain", "Crypto", "_CryptoExtras"]),
    ]

    @Test(arguments: ["PostgresHub", "Hub", "Credentials"])
    func hubSourcesImportOnlyWhatTheyAreAllowed(_ target: String) throws {
        let allowed = try #require(Self.allowedImports[target])
        let files = try SourceTree.swiftFiles(in: "Sources/\(target)")
        // The files are there and were read: a wrong folder would pass the rule unseen.
        #expect(files.count >= 3, "\(files.map(\.lastPathComponent)) in Sources/\(target)")
        for file in files {
            let imported = Set(SwiftImports.modules(in: try String(contentsOf: file, encoding: .utf8)))
            #expect(imported.isSubset(of: allowed),
                    "\(target)/\(file.lastPathComponent) imports \(imported.subtracting(allowed).sorted())")
        }
    }

    @Test(arguments: ["PostgresHub", "Hub"])
    func packageGivesTheHubsNoStorageEvenIndirectly(_ target: String) throws {
        let manifest = try SourceTree.manifest()
        _ = try #require(PackageManifest.dependencies(ofTarget: target, in: manifest))
        let reached = PackageManifest.dependencyClosure(ofTarget: target, in: manifest)
        #expect(reached.isDisjoint(with: Self.storageModules), "\(target) depends on \(reached.sorted())")
        #expect(target != "PostgresHub" || reached.contains("Hub"), "PostgresHub depends on \(reached.sorted())")
    }
}
