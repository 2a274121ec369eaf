import Foundation
import Translations
import XCTest

/// Catalogs as libgettextpo reads them: plurals, context, fuzzy and obsolete entries, escapes, placeholders.
final class CatalogTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ name: String, _ text: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private static let header = """
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Language: ru\\n"
        "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"


        """

    func testEntriesPluralsContextAndFuzzy() throws {
        let file = try write("ru.po", Self.header + """
            msgid "Sign in"
            msgstr "Войти"

            msgctxt "navigation"
            msgid "Map"
            msgstr "Карта"

            msgid "Map"
            msgstr "Схема"

            #, fuzzy
            msgid "Sign out"
            msgstr "Выйти (guess)"

            msgid "Untranslated"
            msgstr ""

            msgid "Say \\"hello\\"\\n"
            "on two lines"
            msgstr "Скажите \\"привет\\"\\n"
            "в двух строках"

            msgid "{count} participant"
            msgid_plural "{count} participants"
            msgstr[0] "{count} участник"
            msgstr[1] "{count} участника"
            msgstr[2] "{count} участников"

            #~ msgid "Old"
            #~ msgstr "Старое"

            """)
        let catalog = try CatalogFile.read(file)
        XCTAssertEqual(catalog.language, "ru")
        XCTAssertEqual(catalog.translation(of: "Sign in", context: nil), "Войти")
        XCTAssertEqual(catalog.translation(of: "Map", context: "navigation"), "Карта")
        XCTAssertEqual(catalog.translation(of: "Map", context: nil), "Схема")
        XCTAssertNil(catalog.translation(of: "Sign out", context: nil), "a fuzzy entry is not a translation")
        XCTAssertNil(catalog.translation(of: "Untranslated", context: nil))
        XCTAssertNil(catalog.translation(of: "Old", context: nil), "an obsolete entry is not a translation")
        XCTAssertEqual(catalog.translation(of: "Say \"hello\"\non two lines", context: nil), "Скажите \"привет\"\nв двух строках")
        XCTAssertEqual(catalog.pluralForms(of: "{count} participant", context: nil)?.count, 3)
        XCTAssertEqual(catalog.problems, [])

        let russian = Languages(catalogs: [catalog]).translator(for: "ru")!
        let counts = [1, 3, 5, 21].map { russian.text(Message("{count} participant", plural: "{count} participants", count: $0)) }
        XCTAssertEqual(counts, ["1 участник", "3 участника", "5 участников", "21 участник"])
        XCTAssertEqual(russian.text(Message("Not in the catalog")), "Not in the catalog")
        XCTAssertEqual(russian.text(Message("{n} things", plural: "{n} thing", count: 2, ["n": "2"])), "2 thing",
                       "an untranslated plural takes English's forms and rule")
    }

    func testPlaceholderMismatchesAreLeftOutAndListed() throws {
        let file = try write("ru.po", Self.header + """
            msgid "Signed in as {name}"
            msgstr "Вы вошли как {имя}"

            msgid "{count} of {total}"
            msgstr "{total} из {count}"

            msgid "{count} day"
            msgid_plural "{count} days"
            msgstr[0] "{count} день"
            msgstr[1] "{count} дня"
            msgstr[2] "{days} дней"

            msgid "{count} week"
            msgid_plural "{count} weeks"
            msgstr[0] "неделя"
            msgstr[1] "{count} недели"

            """)
        let catalog = try CatalogFile.read(file)
        XCTAssertNil(catalog.translation(of: "Signed in as {name}", context: nil))
        XCTAssertEqual(catalog.translation(of: "{count} of {total}", context: nil), "{total} из {count}", "reordered is fine")
        XCTAssertNil(catalog.pluralForms(of: "{count} day", context: nil))
        XCTAssertNil(catalog.pluralForms(of: "{count} week", context: nil), "2 forms where the language has 3")
        XCTAssertEqual(catalog.problems.count, 3, "\(catalog.problems)")
    }

    func testASyntaxErrorNamesTheFileAndLine() throws {
        let file = try write("xx.po", """
            msgid "One"
            msgstr "Uno"

            msgid "Two
            msgstr "Dos"

            """)
        XCTAssertThrowsError(try CatalogFile.read(file)) { error in
            XCTAssertTrue("\(error)".contains("xx.po:5: end-of-line within string"), "\(error)")
        }
        let (catalogs, problems) = try CatalogFile.readAll(in: folder)
        XCTAssertEqual(catalogs.count, 0)
        XCTAssertEqual(problems.count, 1)
    }

    func testAFolderWithoutCatalogsIsEnglishAlone() throws {
        let (languages, problems) = try Languages.load(folder: folder.appendingPathComponent("none"), pseudoLocale: false)
        XCTAssertEqual(languages.offered.map(\.tag), ["en"])
        XCTAssertEqual(problems, [])
    }
}
