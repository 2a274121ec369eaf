import Foundation
import Translations
import WebUI

/// `fieldbook translations extract`: the `.pot` of every text marked for translation in a checkout's templates
/// (`{{_}}…{{/_}}`) and Swift sources (`Message("…")`).
public enum TranslationExtraction {
    /// The template's text, and the marked texts that cannot be extracted (each `file:line: why`).
    public static func template(templates: String, sources: String) throws -> (contents: String, problems: [String]) {
        var template = TranslationTemplate()
        var problems: [String] = []
        let checkout = URL(fileURLWithPath: templates).deletingLastPathComponent().standardizedFileURL.path + "/"
        for (name, texts) in try PageRenderer.markedTexts(directory: templates).sorted(by: { $0.key < $1.key }) {
            for text in texts { template.add(text, at: "templates/\(name).mustache") }
        }
        let root = URL(fileURLWithPath: sources, isDirectory: true).standardizedFileURL
        let files = (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
        for file in files {
            let path = file.standardizedFileURL.path
            let shown = path.hasPrefix(checkout) ? String(path.dropFirst(checkout.count)) : path
            let (found, fileProblems) = SwiftMessageScanner.scan(try String(contentsOf: file, encoding: .utf8))
            // Files without line numbers: a line moved by an unrelated edit leaves the .pot as it is.
            for text in found { template.add(text.text, at: shown) }
            problems += fileProblems.map { "\(shown):\($0.line): \($0.problem)" }
        }
        return (template.contents, problems)
    }
}
