import Foundation
import Translations
import XCTest

/// The catalogs in translations/: each reads with no entry left out (a placeholder mismatch, a wrong number of plural
/// forms), says whether a native speaker has reviewed it, and translates every text of translations/fieldbook.pot
/// (which AppTests keeps equal to what the templates and sources mark).
final class ShippedCatalogTests: XCTestCase {
    private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("translations")

    private var catalogFiles: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "po" }.sorted { $0.path < $1.path }
    }

    func testEveryShippedCatalogReadsWithoutProblems() throws {
        let (catalogs, problems) = try CatalogFile.readAll(in: folder)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(catalogs.flatMap { catalog in catalog.problems.map { "\(catalog.language): \($0)" } }, [])
        XCTAssertEqual(Set(catalogs.map(\.language)).isSuperset(of: ["es", "fa"]), true)
    }

    func testEveryShippedCatalogTranslatesEveryText() throws {
        let texts = try CatalogFile.entries(of: folder.appendingPathComponent("fieldbook.pot")).filter { !$0.msgid.isEmpty }
        XCTAssertFalse(texts.isEmpty)
        for file in catalogFiles {
            let catalog = try CatalogFile.read(file)
            let missing = texts.filter { text in
                text.msgidPlural == nil ? catalog.translation(of: text.msgid, context: text.context) == nil
                    : catalog.pluralForms(of: text.msgid, context: text.context) == nil
            }
            XCTAssertEqual(missing.map(\.msgid), [], "\(file.lastPathComponent) leaves these in English")
        }
    }

    func testTranslationsMadeHereSaySoInTheHeader() throws {
        for file in catalogFiles {
            let header = try String(contentsOf: file, encoding: .utf8).prefix(400)
            XCTAssertTrue(header.contains("Needs review by a native speaker") || header.contains("Reviewed by a native speaker"),
                          "\(file.lastPathComponent) says whether a native speaker reviewed it")
        }
    }
}
