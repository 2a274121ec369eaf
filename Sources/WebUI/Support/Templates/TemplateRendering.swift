/// Renders parsed templates with a view of dictionaries, arrays, strings, numbers and booleans, into UTF-8 bytes.
/// Values are told apart by casts to concrete types first (a `[String: Any]`, a `String`), because a cast to a protocol
/// searches the runtime's conformance tables and was a large part of a page's time with the library used before.
struct TemplateRendering {
    let templates: [String: [TemplateNode]]
    var output: [UInt8] = []
    /// The values being rendered, innermost last; names are looked up from the innermost outwards. A dictionary is
    /// cast once, when it is entered, not at every name looked up in it; another value has an empty dictionary beside
    /// it. Two arrays rather than one of an enum: a lookup reads `dictionaries[i][name]` in place, where taking an enum
    /// frame out of the array retained and released its dictionary for every frame searched.
    private var dictionaries: [[String: Any]] = []
    private var values: [Any?] = []
    /// Beside each frame: the fields it answers when it is a `TemplateFields` (a list's row), else nil.
    private var fields: [TemplateFields?] = []

    init(templates: [String: [TemplateNode]], capacity: Int) {
        self.templates = templates
        output.reserveCapacity(capacity)
    }

    mutating func render(_ nodes: [TemplateNode], _ view: Any) {
        if let dictionary = view as? [String: Any] {
            render(nodes, dictionary: dictionary)
        } else {
            render(nodes, dictionary: [:], value: view)
        }
    }

    private mutating func render(_ nodes: [TemplateNode], dictionary: [String: Any], value: Any? = nil, fields: TemplateFields? = nil) {
        dictionaries.append(dictionary)
        values.append(value)
        self.fields.append(fields)
        render(nodes)
        dictionaries.removeLast()
        values.removeLast()
        self.fields.removeLast()
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
            }
        }
    }

    /// A section renders once for `true` or any single value (pushed, so its names are found first), once per item for
    /// a list, and not at all for `false`, nothing, or an empty list.
    private mutating func renderSection(_ inner: [TemplateNode], _ value: Any?) {
        guard let value else { return }
        if let flag = value as? Bool {
            if flag { render(inner) }
        } else if let text = value as? String {
            // Before the casts to lists below: a text section (`{{#phone}}`) otherwise reached a Mirror for each row.
            render(inner, dictionary: [:], value: text)
        } else if let rows = value as? [TemplateFields] {
            // Before the cast to a list of dictionaries, which would try each row.
            for row in rows { render(inner, dictionary: [:], fields: row) }
        } else if let rows = value as? [[String: Any]] {
            for row in rows { render(inner, dictionary: row) }
        } else if let dictionary = value as? [String: Any] {
            render(inner, dictionary: dictionary)
        } else if let items = Self.items(value) {
            for item in items { render(inner, item) }
        } else if let present = Self.present(value) {
            render(inner, present)
        }
    }

    private mutating func renderInverted(_ inner: [TemplateNode], _ value: Any?) {
        guard let value = value.flatMap(Self.present) else { return render(inner) }
        if let flag = value as? Bool {
            if !flag { render(inner) }
        } else if let rows = value as? [TemplateFields] {
            if rows.isEmpty { render(inner) }
        } else if let rows = value as? [[String: Any]] {
            if rows.isEmpty { render(inner) }
        } else if let items = Self.items(value), items.isEmpty {
            render(inner)
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

    private mutating func write(_ value: Any, escaped: Bool) {
        let text: String
        switch value {
        case let string as String: text = string
        case let number as Int: text = String(number)
        case let html as RenderedHTML:
            if escaped { text = String(decoding: html.bytes, as: UTF8.self) } else { return output += html.bytes }
        default:
            guard let present = Self.present(value) else { return }
            text = String(describing: present)
        }
        if escaped { Self.appendEscaped(text, to: &output) } else { output += text.utf8 }
    }

    /// The value a name refers to: its first part is looked up from the innermost value outwards, the rest inside it.
    /// A value may be an optional holding nothing: the places that use one check (`present`).
    private func lookUp(_ name: TemplateName) -> Any? {
        guard let first = name.first else {
            guard let last = values.indices.last else { return nil }
            return values[last] ?? dictionaries[last]
        }
        for index in dictionaries.indices.reversed() {
            // A frame's dictionary is empty when it holds another value: hashing the name for it is skipped.
            let inDictionary = dictionaries[index].isEmpty ? fields[index]?.field(first) : dictionaries[index][first]
            guard var found = inDictionary ?? values[index].flatMap({ Self.child(first, of: $0) }) else { continue }
            for part in name.rest {
                guard let next = Self.child(part, of: found) else { return nil }
                found = next
            }
            return found
        }
        return nil
    }

    private static func child(_ name: String, of object: Any) -> Any? {
        // [String: String] first: casting one to [String: Any] would copy every entry.
        if let dictionary = object as? [String: String] { return dictionary[name] }
        if let dictionary = object as? [String: Any] { return dictionary[name] }
        if let fields = object as? TemplateFields { return fields.field(name) }
        // Text, numbers and flags have no named parts. A section over one (`{{#phone}}…{{phone_uri}}…{{/phone}}`) looks
        // names up through it, and reflecting it with a Mirror for each was a visible part of a list page's time.
        if object is String || object is Int || object is Bool { return nil }
        guard let object = present(object) else { return nil }
        return Mirror(reflecting: object).children.first { $0.label == name }?.value
    }

    /// The value, or nil when it is an optional holding nothing.
    private static func present(_ value: Any) -> Any? {
        if let optional = value as? any OptionalValue { return optional.wrappedValue.flatMap(present) }
        return value
    }

    /// The items of a list other than a list of dictionaries, or nil when the value is not a list.
    private static func items(_ value: Any) -> [Any]? {
        if let strings = value as? [String] { return strings }
        if let any = value as? [Any] { return any }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .collection || mirror.displayStyle == .set else { return nil }
        return mirror.children.map(\.value)
    }

    /// Appends `text` with `< > & " '` replaced by their entities, reading UTF-8 bytes rather than characters.
    static func appendEscaped(_ text: String, to output: inout [UInt8]) {
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
                case UInt8(ascii: "'"): entity = "&#39;"
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

/// A view that answers names itself rather than from a dictionary: a list's row. Fifty rows made fifty dictionaries
/// of about ten entries each, every entry hashed when made and again when looked up, for a page read once.
struct TemplateFields {
    /// The value for a name, or nil when this view has none (the name is then looked up in the views around it).
    let field: (String) -> Any?

    init(_ field: @escaping (String) -> Any?) {
        self.field = field
    }

    /// The entries of a dictionary (a list whose rows are few).
    init(_ dictionary: [String: Any]) {
        self.init { dictionary[$0] }
    }
}

/// A template already rendered (a page's body inside the layout), written as its bytes: turning it into a `String`
/// and back checked every byte of the page twice.
struct RenderedHTML {
    let bytes: [UInt8]
}

/// Lets a value of unknown type be asked whether it is an optional holding nothing.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { self.map { $0 as Any } }
}
