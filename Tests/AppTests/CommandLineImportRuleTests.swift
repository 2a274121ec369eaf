import Foundation
import Testing

/// The command line speaks to App only (README, Architecture): Sources/fieldbook may import App, the argument
/// parser, Logging and the system's Foundation and Dispatch, and Package.swift gives the target nothing else.
@Suite struct CommandLineImportRuleTests {
    static let allowedImports: Set<String> = ["App", "ArgumentParser", "Logging", "Foundation", "Dispatch"]
    static let allowedDependencies: Set<String> = ["App", "ArgumentParser", "Logging"]

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func swiftFiles(in folder: String) throws -> [URL] {
        let directory = repositoryRoot.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test func commandLineSourcesImportOnlyAppAndTheirTools() throws {
        let files = try Self.swiftFiles(in: "Sources/fieldbook")
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
        let files = try Self.swiftFiles(in: "Sources/App")
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!SwiftImports.declarations(in: text).contains { $0.contains("@_exported") }, "\(file.lastPathComponent)")
        }
    }

    @Test func packageGivesTheCommandLineOnlyAppAndItsTools() throws {
        let manifest = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
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
}

/// Reads import declarations from Swift source text (one declaration a line, as Swift writes them).
enum SwiftImports {
    static let declarationKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The import lines, trimmed, comments dropped.
    static func declarations(in source: String) -> [String] {
        source.split(separator: "\n").map { line in
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            return code.trimmingCharacters(in: .whitespaces)
        }.filter { line in
            line.split(separator: " ").drop { $0.hasPrefix("@") }.first == "import"
        }
    }

    /// The module each import names: `import struct Sync.HubLinker` imports from Sync.
    static func modules(in source: String) -> [String] {
        declarations(in: source).compactMap { declaration in
            var words = declaration.split(separator: " ").drop { $0.hasPrefix("@") }.dropFirst()
            if let kind = words.first, declarationKinds.contains(String(kind)) { words = words.dropFirst() }
            return words.first?.split(separator: ".").first.map(String.init)
        }
    }
}

/// Reads a target's dependencies from Package.swift's text: the names in its `dependencies: [...]` list, whether
/// targets ("App") or products (.product(name: "ArgumentParser", ...)).
enum PackageManifest {
    static func dependencies(ofTarget target: String, in manifest: String) -> [String]? {
        guard let declaration = manifest.range(of: "(name: \"\(target)\", dependencies: [") else { return nil }
        var depth = 1
        var list = ""
        for character in manifest[declaration.upperBound...] {
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            if depth == 0 { break }
            list.append(character)
        }
        let products = list.replacingOccurrences(of: #"package: "[^"]*""#, with: "", options: .regularExpression)
        return products.matches(of: /"([^"]+)"/).map { String($0.output.1) }
    }
}
