import Foundation
import GRDB
import PropertyBased
@testable import Storage
import Testing

/// The trigram index decides a search of every field alone (`ListQuery.matching`), so its phrase must match exactly
/// the rows the LIKE it replaced matched, for any text a person could type, accents, ligatures, quotes and LIKE's own
/// wildcards included.
@Suite struct SearchIndexTests {
    static let alphabet: [String] = ["a", "b", "n", "s", "o", "é", "E", "ß", "ﬁ", "Σ", "ς", "İ", "ı", "%", "_", "\"", "'", "\\", " ",
                                     "-", "@", ".", "0", "Ö", "ø", "æ", "ǅ", "ﬀ", "ﾊ", "１", "ä", "a\u{308}", "ñ", "Ł", "*", "^"]

    /// ASCII text skips Foundation's folding (`SearchText.foldASCII`), so it must fold exactly as Foundation does.
    @Test func asciiTextFoldsAsFoundationFoldsIt() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...127).array(of: 0...40)) { codes in
            let text = String(decoding: codes.map(UInt8.init), as: UTF8.self)
            let foundation = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            #expect(SearchText.foldASCII(text) == foundation)
            #expect(SearchText.fold(text) == foundation)
        }
        #expect(SearchText.foldASCII("Émile") == nil)
        #expect(SearchText.fold("ÉMILE") == "emile")
    }

    @Test func aPhraseOfTheFoldedQueryMatchesExactlyWhatTheLikeMatched() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0..<Self.alphabet.count).array(of: 4...24).array(of: 20...40),
                            Gen.int(in: 0...10_000).array(of: 12)) { texts, picks in
            let given = try TestDatabase(linked: false)
            let fields = texts.map { letters in letters.map { Self.alphabet[$0] }.joined() }
            try given.database.pool.write { db in
                try db.execute(sql: "CREATE TABLE searched (search_text TEXT NOT NULL)")
                try db.execute(sql: "CREATE VIRTUAL TABLE searched_fts USING fts5(search_text, content='searched', content_rowid='rowid', tokenize='trigram')")
                for (index, text) in fields.enumerated() {
                    let stored = SearchText.of([text, fields[(index + 1) % fields.count]])
                    try db.execute(sql: "INSERT INTO searched (search_text) VALUES (?)", arguments: [stored])
                    try db.execute(sql: "INSERT INTO searched_fts (rowid, search_text) VALUES (last_insert_rowid(), ?)", arguments: [stored])
                }
            }
            // Queries cut from the texts (so most match something), in other cases too, and a few made up.
            let queries = picks.map { pick -> String in
                let source = Array(fields[pick % fields.count])
                let start = pick % max(1, source.count - 2), length = 3 + pick % 5
                let cut = String(source[start..<min(source.count, start + length)])
                return pick % 3 == 0 ? cut.uppercased() : pick % 3 == 1 ? cut : (0..<4).map { Self.alphabet[(pick / ($0 + 1)) % Self.alphabet.count] }.joined()
            }
            try given.database.pool.read { db in
                for query in queries {
                    let trimmed = query.trimmingCharacters(in: .whitespaces)
                    let folded = SearchText.fold(trimmed)
                    guard folded.unicodeScalars.count >= SearchIndex.shortest else { continue }
                    let byIndex = try Set(Int64.fetchAll(db, sql: "SELECT rowid FROM searched_fts WHERE searched_fts MATCH ?",
                                                         arguments: [SearchIndex.phrase(folded)]))
                    let byLike = try Set(Int64.fetchAll(db, sql: "SELECT rowid FROM searched WHERE search_text LIKE ? ESCAPE '\\'",
                                                        arguments: [SearchText.pattern(trimmed)]))
                    #expect(byIndex == byLike, "query \(query.debugDescription) folded \(folded.debugDescription)")
                }
            }
        }
    }
}
