import Foundation
import GRDB
@testable import Storage
import Testing

/// References created on request, on the import's review page (issue 41): the missing names counted per kind of
/// record, one choice each, the areas' type asked for with the error summary, and the records created on import.
extension ImportPageTests {
    @Test func theReviewOffersToCreateMissingHomeVenuesAndTheirAreas() async throws {
        let given = try await editor()
        let csv = "Name,Email,Home venue,Home venue address,Home venue area\nAda,ada@example.org,Hall,1 Road,World / Kenya\nBea,bea@example.org,Hall,1 Road,World / Kenya\n"
        let review = try given.upload("/imports", field: "file", filename: "people.csv", Array(csv.utf8)).header("Location") ?? ""
        let html = given.get(review).bodyText
        #expect(html.contains("Records the file names that are not here"))
        #expect(html.contains(#"<label class="checkbox__label" for="create-home_venue">Create the 1 missing venue</label>"#))
        #expect(html.contains("Create the 2 missing areas") && html.contains("World, World / Kenya (named by 2 rows)"))
        #expect(html.contains(#"action="\#(review)/references""#))

        // Areas need a type: said in the error summary, at the field, and nothing is saved.
        let refused = given.post(review + "/references", [("create", "home_venue"), ("create", "home_venue_area")], formPath: review)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains(##"<a href="#area_type">Choose the type of the areas the import creates</a>"##))
        #expect(refused.bodyText.contains(#"id="create-home_venue" name="create" value="home_venue" aria-describedby="create-home_venue-hint" checked"#))
        #expect(try given.database.importJob(id: UUID(uuidString: String(review.split(separator: "/").last!))!).creating == ImportCreating())

        let saved = given.post(review + "/references", [("create", "home_venue"), ("create", "home_venue_area"), ("area_type", "COUNTRY")], formPath: review)
        #expect(saved.status == .seeOther)
        #expect(given.get(review).bodyText.contains("2 rows to add as new participants"))
        #expect(given.post(review + "/start", [], formPath: review).status == .seeOther)
        #expect(given.web.imports.runOnce() == 1)
        let venues = try given.database.read { try String.fetchAll($0, sql: "SELECT name FROM venues") }
        #expect(venues == ["Hall"])
        #expect(try given.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM geographic_areas") } == 2)
    }
}
