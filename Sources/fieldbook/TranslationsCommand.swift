import App
import ArgumentParser
import Foundation

/// `fieldbook translations`: the texts translators translate.
struct TranslationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translations", abstract: "Work on the translations (docs/TRANSLATING.md).", subcommands: [TranslationsExtract.self])
}

/// `fieldbook translations extract`: the .pot of a checkout's marked texts (`make translations` runs it).
struct TranslationsExtract: FieldbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write the .pot of every text marked in a checkout's templates and Swift sources.")

    @Option(help: "The templates folder.") var templates = "templates"
    @Option(help: "The Swift sources folder.") var sources = "Sources"
    @Option(help: "The .pot file to write.") var output = "translations/fieldbook.pot"

    func perform() async throws {
        let (contents, problems) = try TranslationExtraction.template(templates: templates, sources: sources)
        guard problems.isEmpty else {
            throw Refusal("texts that cannot be extracted (write them as string literals with {placeholders}):\n"
                          + problems.joined(separator: "\n"))
        }
        try contents.write(toFile: output, atomically: true, encoding: .utf8)
        announce("wrote \(output)")
    }
}
