import Translations

/// Renders parsed templates with a view (`TemplateValue`) into UTF-8 bytes, in the language the templates were parsed
/// in: `translator` translates the view's `Message`s.
struct TemplateRendering {
    let templates: [String: [TemplateNode]]
    let translator: Translator
    var output: [UInt8] = []
    /// The values being rendered, innermost last; names are looked up from the innermost outwards. Three arrays rather
    /// than one of values: a lookup reads `entries[i][name]` in place, where taking an enum frame out of the array
    /// retained and released its dictionary for every frame searched. A frame that is not a view has empty entries.
    private var entries: [[String: TemplateValue]] = []
    /// Beside each frame: the fields it answers when it is a `TemplateFields` (a list's row), else nil.
    private var fields: [TemplateFields?] = []
    private var values: [TemplateValue] = []

    init(templates: [String: [TemplateNode]], translator: Translator, capacity: Int) {
        self.templates = templates
        self.translator = translator
        output.reserveCapacity(capacity)
    }

    mutating func render(_ nodes: [TemplateNode], _ view: TemplateView) {
        render(nodes, pushing: .view(view))
    }

    private mutating func render(_ nodes: [TemplateNode], pushing value: TemplateValue) {
        switch value {
        case .view(let view): entries.append(view.entries); fields.append(nil)
        case .fields(let rowFields): entries.append([:]); fields.append(rowFields)
        default: entries.append([:]); fields.append(nil)
        }
        values.append(value)
        render(nodes)
        entries.removeLast()
        fields.removeLast()
        values.removeLast()
    }

    private mutating func render(_ nodes: [TemplateNode]) {
        for node in nodes {
            switch node {
            case .text(let bytes): output += bytes
            case .variable(let name, let escaped):
                guard let value = lookUp(name) else { continue }
                write(value, escaped: escaped)
            case .section(let name, let inner, let inverted):
                let value = lookUp(name)
                inverted ? renderInverted(inner, value) : renderSection(inner, value)
            case .partial(let name, let indentation):
                guard let partial = templates[name] else { continue }
                if indentation.isEmpty {
                    render(partial)
                } else {
                    renderIndented(partial, indentation)
                }
            case .plural(let name, let forms, let rule):
                let form = rule.form(for: lookUp(name).map(Self.number) ?? 0)
                render(forms[min(form, forms.count - 1)])
            }
        }
    }

    /// A section renders once for `true` or any single value (pushed, so its names are found first), once per item for
    /// a list, and not at all for `false`, nothing, or an empty list.
    private mutating func renderSection(_ inner: [TemplateNode], _ value: TemplateValue?) {
        switch value {
        case nil, .nothing?: return
        case .flag(let flag)?: if flag { render(inner) }
        case .list(let items)?: for item in items { render(inner, pushing: item) }
        case let value?: render(inner, pushing: value)
        }
    }

    private mutating func renderInverted(_ inner: [TemplateNode], _ value: TemplateValue?) {
        switch value {
        case nil, .nothing?: render(inner)
        case .flag(let flag)?: if !flag { render(inner) }
        case .list(let items)?: if items.isEmpty { render(inner) }
        default: return
        }
    }

    /// A standalone partial's every line starts with the spaces its tag had.
    private mutating func renderIndented(_ partial: [TemplateNode], _ indentation: [UInt8]) {
        let start = output.count
        render(partial)
        var indented: [UInt8] = indentation
        for (offset, byte) in output[start...].enumerated() {
            indented.append(byte)
            if byte == UInt8(ascii: "\n"), start + offset + 1 < output.count { indented += indentation }
        }
        output.replaceSubrange(start..., with: indented)
    }

    /// Text, numbers and flags are written as text; a list or a view has no text of its own and writes nothing.
    private mutating func write(_ value: TemplateValue, escaped: Bool) {
        let text: String
        switch value {
        case .text(let string): text = string
        case .number(let number): text = String(number)
        case .flag(let flag): text = flag ? "true" : "false"
        case .html(let html):
            if escaped { text = String(decoding: html.bytes, as: UTF8.self) } else { return output += html.bytes }
        case .message(let message): text = translator.text(message)
        case .list, .view, .fields, .nothing: return
        }
        if escaped { Self.appendEscaped(text, to: &output) } else { output += text.utf8 }
    }

    /// The number a plural is chosen by: a number, or text that reads as one; anything else counts as 0.
    private static func number(_ value: TemplateValue) -> Int {
        switch value {
        case .number(let number): number
        case .text(let text): Int(text) ?? 0
        case .list(let items): items.count
        default: 0
        }
    }

    /// The value a name refers to: its first part is looked up from the innermost value outwards, the rest inside it.
    private func lookUp(_ name: TemplateName) -> TemplateValue? {
        guard let first = name.first else { return values.last }
        for index in entries.indices.reversed() {
            // A frame's entries are empty when it is not a view: hashing the name for it is skipped.
            let found = entries[index].isEmpty ? fields[index]?.field(first) : entries[index][first]
            guard var found else { continue }
            for part in name.rest {
                guard let next = Self.child(part, of: found) else { return nil }
                found = next
            }
            return found
        }
        return nil
    }

    /// A named part of a view or a row; text, numbers and flags have none.
    private static func child(_ name: String, of value: TemplateValue) -> TemplateValue? {
        switch value {
        case .view(let view): view.value(name)
        case .fields(let rowFields): rowFields.field(name)
        default: nil
        }
    }

    /// Appends `text` with `< > & " '` replaced by their entities, reading UTF-8 bytes rather than characters.
    /// `keepingApostrophes`: for texts the templates themselves hold (translations), which stand where an apostrophe is
    /// plain text: a text node or a double-quoted attribute (no template quotes an attribute with `'`).
    static func appendEscaped(_ text: String, keepingApostrophes: Bool = false, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() {
                let entity: StaticString
                switch byte {
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'") where !keepingApostrophes: entity = "&#39;"
                default: continue
                }
                output += bytes[runStart..<index]
                output += UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount)
                runStart = index + 1
            }
            output += bytes[runStart...]
        }
    }
}
