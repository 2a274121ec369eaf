import App
import Foundation
import Testing

/// translations/fieldbook.pot is what `make translations` makes from the checkout now: a text marked and not extracted
/// would be missing from every catalog unseen (ShippedCatalogTests checks the catalogs against the .pot).
@Suite struct TranslationTemplateTests {
    @Test func theTemplateHoldsEveryMarkedTextOfTheCheckout() throws {
        let root = SourceTree.repositoryRoot
        let (made, problems) = try TranslationExtraction.template(templates: root.appendingPathComponent("templates").path,
                                                                  sources: root.appendingPathComponent("Sources").path)
        #expect(problems == [])
        let kept = try String(contentsOf: root.appendingPathComponent("translations/fieldbook.pot"), encoding: .utf8)
        #expect(made == kept, "translations/fieldbook.pot is out of date: run make translations")
    }
}
