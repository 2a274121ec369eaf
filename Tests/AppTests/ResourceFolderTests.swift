@testable import App
import Foundation
import Testing

/// Where the program looks for its templates when --resources does not say.
@Suite struct ResourceFolderTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-resources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func makeResources(in folder: String) throws {
        let templates = root.appendingPathComponent(folder).appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("{{{content}}}".utf8).write(to: templates.appendingPathComponent("layout.mustache"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent(folder).appendingPathComponent("Public"),
                                                withIntermediateDirectories: true)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    @Test func anInstalledProgramUsesItsPrefixShareFolder() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try makeResources(in: "usr/share/fieldbook")
        #expect(ResourceFolder.locate(executable: path("usr/bin/fieldbook"), currentDirectory: "/") == path("usr/share/fieldbook"))
    }

    @Test func aProgramInACheckoutsBuildFolderUsesTheCheckout() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try makeResources(in: "checkout")
        #expect(ResourceFolder.locate(executable: path("checkout/.build/x86_64-unknown-linux-gnu/release/fieldbook"), currentDirectory: "/")
            == path("checkout"))
    }

    @Test func otherwiseTheCurrentFolderIfItHoldsThem() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try makeResources(in: "here")
        #expect(ResourceFolder.locate(executable: path("elsewhere/fieldbook"), currentDirectory: path("here")) == path("here"))
        #expect(ResourceFolder.locate(executable: path("elsewhere/fieldbook"), currentDirectory: path("nowhere")) == ".")
    }
}
