import Foundation
import Testing

/// The command line speaks to App only (README, Architecture): Sources/fieldbook may import App, the argument
/// parser, Logging and the system's Foundation and Dispatch, and Package.swift gives the target nothing else.
@Suite struct CommandLineImportRuleTests {
    static let allowedImports: Set<String> = ["App", "ArgumentParser", "Logging", "Foundation", "Dispatch"]
    static let allowedDependencies: Set<String> = ["App", "ArgumentParser", "Logging"]

    @Test func commandLineSourcesImportOnlyAppAndTheirTools() throws {
        let files = try SourceTree.swiftFiles(in: "Sources/fieldbook")
        var importingApp = 0
        for file in files {
            let imported = Set(SwiftImports.modules(in: try String(contentsOf: file, encoding: .utf8)))
            if imported.contains("App") { importingApp += 1 }
            #expect(imported.isSubset(of: Self.allowedImports),
                    "\(file.lastPathComponent) imports \(imported.subtracting(Self.allowedImports).sorted()); go through App instead")
        }
        // The commands are there and were read: a wrong folder or an unread file would pass the rule unseen.
        #expect(importingApp >= 4, "\(importingApp) of \(files.map(\.lastPathComponent)) import App")
    }

    /// `@_exported import` in App would hand its dependencies to the command line behind the rule's back.
    @Test func appReExportsNothing() throws {
        let files = try SourceTree.swiftFiles(in: "Sources/App")
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!SwiftImports.declarations(in: text).contains { $0.contains("@_exported") }, "\(file.lastPathComponent)")
        }
    }

    @Test func packageGivesTheCommandLineOnlyAppAndItsTools() throws {
        let manifest = try SourceTree.manifest()
        let dependencies = try #require(PackageManifest.dependencies(ofTarget: "fieldbook", in: manifest))
        #expect(Set(dependencies) == Self.allowedDependencies, "fieldbook depends on \(dependencies)")
    }

    @Test func importsAreReadWhateverTheirForm() {
        let source = """
            import App
            @preconcurrency import Storage
            @testable import struct Sync.HubLinker
            @_exported import HTTPServer
              import Domain // a comment
            // import WebUI
            let text = "import JSONAPI"
            """
        #expect(SwiftImports.modules(in: source) == ["App", "Storage", "Sync", "HTTPServer", "Domain"])
        #expect(SwiftImports.declarations(in: source).filter { $0.contains("@_exported") } == ["@_exported import HTTPServer"])
    }

    @Test func aTargetsDependenciesAreReadFromTheManifest() {
        let manifest = """
            .target(name: "App", dependencies: ["Storage"]),
            .executableTarget(name: "fieldbook", dependencies: [
                "App", "Storage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
            .testTarget(name: "AppTests", dependencies: ["App"]),
            """
        #expect(PackageManifest.dependencies(ofTarget: "fieldbook", in: manifest) == ["App", "Storage", "ArgumentParser"])
        #expect(PackageManifest.dependencies(ofTarget: "missing", in: manifest) == nil)
    }

    /// A target's dependencies, theirs and so on: a target without a list (or a product) adds none.
    @Test func aTargetsDependencyClosureIsReadFromTheManifest() {
        let manifest = """
            .target(name: "Domain"),
            .target(name: "Records", dependencies: ["Domain"]),
            .target(name: "Storage", dependencies: ["Records", .product(name: "GRDB", package: "GRDB.swift")]),
            .target(name: "Sync", dependencies: ["Storage"]),
            .target(name: "Hub", dependencies: ["Records", "Sync"]),
            """
        #expect(PackageManifest.dependencyClosure(ofTarget: "Hub", in: manifest)
                == ["Records", "Domain", "Sync", "Storage", "GRDB"])
        #expect(PackageManifest.dependencyClosure(ofTarget: "Domain", in: manifest) == [])
    }
}
