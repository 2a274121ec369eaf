import Domain
import Foundation
import Translations

/// A table of figures, shown on the page and downloaded as CSV from the same value, so the two cannot differ. The
/// first column names each row (a row header).
struct DataTable {
    struct Cell {
        /// What the page shows; the CSV holds its English.
        let text: Message
        var link: String?
        /// Numbers are right-aligned and shown with thousands separators.
        var number: Int?
        /// Text Fieldbook wrote (a change such as "+25.0% (up)"), not typed by a user, so CSV needs no defusing.
        var generated = false

        init(text: Message, link: String? = nil) { (self.text, self.link) = (text, link) }

        static func text(_ text: String, link: String? = nil) -> Cell { Cell(text: .verbatim(text), link: link) }
        static func generated(_ text: Message) -> Cell {
            var cell = Cell(text: text)
            cell.generated = true
            return cell
        }
        static func number(_ value: Int) -> Cell {
            var cell = Cell(text: .verbatim(String(value)))
            cell.number = value
            return cell
        }
    }

    /// Names the CSV download (`?table=<name>`).
    let name: String
    let caption: Message
    let columns: [Message]
    let rows: [[Cell]]

    /// The table on a page, its numbers written as the reader's language writes them.
    func view(_ formats: Formats) -> TemplateView {
        [
            "caption": caption, "columns": columns.dropFirst().map { ["label": $0] }, "first_column": columns.first ?? .verbatim(""),
            "rows": rows.map { row -> TemplateView in
                let header = row.first ?? .text("")
                var view: TemplateView = ["header": header.text, "cells": row.dropFirst().map { Self.cellView($0, formats) }]
                if let link = header.link { view["header_link"] = link }
                return view
            },
            "has_rows": !rows.isEmpty,
        ]
    }

    private static func cellView(_ cell: Cell, _ formats: Formats) -> TemplateView {
        let text: TemplateValue = cell.number.map { .text(formats.number($0)) } ?? .message(cell.text)
        return ["text": text, "number": cell.number != nil]
    }

    /// RFC 4180 CSV with a header row, in English (programs read it). Text cells are defused (`CSV.defused`): area and
    /// type names are typed by users.
    var csv: String {
        ([columns.map(\.english)] + rows.map { $0.map { $0.number.map(String.init) ?? ($0.generated ? $0.text.english : CSV.defused($0.text.english)) } })
            .map(CSV.line).joined()
    }
}
