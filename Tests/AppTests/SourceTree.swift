import Foundation
import Testing

/// The repository's sources and manifest as the import rule tests read them.
enum SourceTree {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func swiftFiles(in folder: String) throws -> [URL] {
        let directory = repositoryRoot.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    static func manifest() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
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

    /// Every target and product `target` depends on, directly or through others. A target declared without a
    /// dependency list, and a product, add nothing further.
    static func dependencyClosure(ofTarget target: String, in manifest: String) -> Set<String> {
        var reached: Set<String> = []
        var waiting = dependencies(ofTarget: target, in: manifest) ?? []
        while let name = waiting.popLast() {
            guard reached.insert(name).inserted else { continue }
            waiting += dependencies(ofTarget: name, in: manifest) ?? []
        }
        return reached
    }
}
