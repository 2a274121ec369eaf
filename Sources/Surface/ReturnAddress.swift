/// An address a request asks to be sent on to after a form: sign-in's `next`, a notification's `return_to`. It is
/// followed only when a browser reads it as a path on this server. The URL standard removes tabs and newlines
/// anywhere in an address, strips controls and spaces from its ends, and takes a backslash for a slash, so
/// `/<TAB>/evil.example/`, `/\evil.example` or `\/evil.example` are all read as `//evil.example`: another site.
/// A CR or LF would also leave the Location header out of the answer.
public enum ReturnAddress {
    /// `wanted` when it is a plain path on this server (it may carry a query string), nil otherwise.
    public static func localPath(_ wanted: String) -> String? {
        let bytes = wanted.utf8
        guard bytes.first == UInt8(ascii: "/"), bytes.dropFirst().first != UInt8(ascii: "/") else { return nil }
        return bytes.contains(where: isNeverInAPlainPath) ? nil : wanted
    }

    /// Controls (which a browser drops or strips before it reads the address) and the backslash (which it reads
    /// as a slash): with none of these, what follows the first "/" cannot become another host.
    private static func isNeverInAPlainPath(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\")
    }
}
