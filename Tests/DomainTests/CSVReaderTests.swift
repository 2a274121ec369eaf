import Domain
import Foundation
import Testing

/// CSV as spreadsheets write it (issue 14's import): what Fieldbook's own writer writes reads back the same, and the
/// shapes Excel and LibreOffice produce read as their cells.
@Suite struct CSVReaderTests {
    func records(_ text: String, separator: CSVReader.Separator? = nil, chunk: Int = 3) -> [[String]] {
        records(Array(text.utf8), separator: separator, chunk: chunk)
    }

    /// Fed `chunk` bytes at a time, so every state is crossed at a chunk's edge somewhere.
    func records(_ bytes: [UInt8], separator: CSVReader.Separator? = nil, chunk: Int = 3) -> [[String]] {
        var reader = CSVReader(separator: separator ?? CSVReader.separator(guessedFrom: bytes))
        var found: [[String]] = []
        var start = 0
        while start < bytes.count {
            reader.read(bytes[start..<min(start + chunk, bytes.count)]) { found.append($0) }
            start += chunk
        }
        reader.finish { found.append($0) }
        return found
    }

    @Test func quotedCellsHoldSeparatorsQuotesAndLineBreaks() {
        #expect(records("name,notes\r\n\"Dubois, Émile\",\"said \"\"hi\"\"\nthen left\"\r\n") ==
                [["name", "notes"], ["Dubois, Émile", "said \"hi\"\nthen left"]])
    }

    @Test func byteOrderMarkAndWindowsLineEndsAreNotPartOfTheCells() {
        #expect(records(CSV.byteOrderMark + Array("name,email\r\nAda,ada@example.org\r\n".utf8)) == [["name", "email"], ["Ada", "ada@example.org"]])
    }

    @Test func semicolonsAndTabsAreFoundFromTheHeaderRow() {
        #expect(CSVReader.separator(guessedFrom: Array("name;email;notes\nA,B;c;d".utf8)) == .semicolon)
        #expect(CSVReader.separator(guessedFrom: Array("name\temail\n".utf8)) == .tab)
        #expect(CSVReader.separator(guessedFrom: Array("\"a;b\",c\n".utf8)) == .comma)
        #expect(records("name;email\nDubois, Émile;e@example.org\n") == [["name", "email"], ["Dubois, Émile", "e@example.org"]])
    }

    @Test func lastRowWithoutLineBreakBlankLinesAndOldMacLineEnds() {
        #expect(records("a,b\r\r\n1,2\r3,") == [["a", "b"], ["1", "2"], ["3", ""]])
        #expect(records("a\n\n\nb") == [["a"], ["b"]])
    }

    @Test func textThatIsNotUTF8IsReadAsWindows1252() {
        var reader = CSVReader(separator: .comma)
        var found: [[String]] = []
        reader.read([0x4E, 0x6F, 0xEB, 0x6C, 0x2C, 0x80, 0x0A]) { found.append($0) }
        #expect(found == [["Noël", "€"]])
        #expect(reader.usedWindows1252)
    }

    @Test func defusedCellsReadBackAsTyped() {
        for typed in ["=1+2", "+44 20", "-x", "@sum", "'=already", "''+twice", "-12.5", "'plain", "plain", ""] {
            let line = CSV.line([CSV.defused(typed), "end"])
            #expect(records(line) == [[typed, "end"]], "\(typed) went out as \(line)")
        }
    }

    /// Only what a spreadsheet would run is defused: phone numbers and signed numbers stay as typed.
    @Test func theFormulaGuardDefusesHostileCellsAndKeepsPhoneNumbers() {
        for kept in ["+44 20 7946 0958", "-12.5", "+1-202-555-0143", "+33 (0)1 42 68 53 00", "-0.1276", "Ada", ""] {
            #expect(CSV.defused(kept) == kept, "\(kept)")
        }
        for hostile in ["=HYPERLINK(\"http://example.com\",\"x\")", "@SUM(1)", "+cmd|' /C calc'!A0", "-2+3*cmd|' /C calc'!A0",
                        "+A1", "-SUM(A1:A2)", "\t=1", "\r=1", "+", "-", "+ "] {
            #expect(CSV.defused(hostile) == "'" + hostile, "\(hostile)")
            // A lone cell holding a tab would be read as a tab-separated file.
            if !hostile.hasPrefix("\t") { #expect(records(CSV.line([CSV.defused(hostile)])) == [[hostile]]) }
        }
    }
}
