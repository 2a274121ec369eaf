import Domain
import Foundation

/// A table of figures, shown on the page and downloaded as CSV from the same value, so the two cannot differ. The
/// first column names each row (a row header).
struct DataTable {
    struct Cell {
        let text: String
        var link: String?
        /// Numbers are right-aligned and shown with thousands separators.
        var number: Int?
        /// Text Fieldbook wrote (a change such as "+25.0% (up)"), not typed by a user, so CSV needs no defusing.
        var generated = false

        static func text(_ text: String, link: String? = nil) -> Cell { Cell(text: text, link: link) }
        static func generated(_ text: String) -> Cell { Cell(text: text, generated: true) }
        static func number(_ value: Int) -> Cell { Cell(text: String(value), number: value) }
    }

    /// Names the CSV download (`?table=<name>`).
    let name: String
    let caption: String
    let columns: [String]
    let rows: [[Cell]]

    var view: TemplateView {
        [
            "caption": caption, "columns": columns.dropFirst().map { ["label": $0] }, "first_column": columns.first ?? "",
            "rows": rows.map { row -> TemplateView in
                let header = row.first ?? .text("")
                var view: TemplateView = ["header": header.text, "cells": row.dropFirst().map(Self.cellView)]
                if let link = header.link { view["header_link"] = link }
                return view
            },
            "has_rows": !rows.isEmpty,
        ]
    }

    private static func cellView(_ cell: Cell) -> TemplateView {
        ["text": cell.number.map(grouped) ?? cell.text, "number": cell.number != nil]
    }

    /// 12,345.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// RFC 4180 CSV with a header row. Text cells are defused (`CSV.defused`): area and type names are typed by users.
    var csv: String {
        ([columns] + rows.map { $0.map { $0.number.map(String.init) ?? ($0.generated ? $0.text : CSV.defused($0.text)) } })
            .map(CSV.line).joined()
    }
}
