import Domain
import Foundation
import HTTPServer
import Storage
import Translations

/// /settings/privacy, for administrators: what read-only users see of participants (issue 16).
enum PrivacyPages {
    static func show(_ context: inout PageContext) throws -> Response {
        let settings = try context.database.privacySettings()
        return context.page("settings/privacy", title: Message("Privacy"), section: .users, view: [
            "choices": [
                choice("read_only_contacts", Message("Their email addresses and phone numbers"), settings.readOnlySeesContacts),
                choice("read_only_notes", Message("The notes kept about them"), settings.readOnlySeesNotes),
                choice("read_only_homes", Message("Where they live: home venues, address history, who lives at a venue, the map's homes layer, and people on visit lists"),
                       settings.readOnlySeesHomes),
            ],
        ])
    }

    static func save(_ context: inout PageContext) throws -> Response {
        var settings = PrivacySettings()
        settings.readOnlySeesContacts = context.request.field("read_only_contacts") == "on"
        settings.readOnlySeesNotes = context.request.field("read_only_notes") == "on"
        settings.readOnlySeesHomes = context.request.field("read_only_homes") == "on"
        try context.database.savePrivacySettings(settings)
        return context.redirect(to: Paths.privacySettings(), flash: Message("Privacy settings saved. They apply to read-only users' next page."))
    }

    private static func choice(_ name: String, _ label: Message, _ checked: Bool) -> TemplateView {
        ["name": name, "label": label, "checked": checked]
    }
}
