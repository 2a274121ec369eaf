import Domain
import Foundation

/// The view `GET /participants` renders for an editor, built as ParticipantPages.list, PageContext.listPage and
/// PageContext.page build it: 50 demo participants sorted by name, the filter form, pagination, downloads, the layout.
/// `fields` makes a row or an option that answers names itself (Fieldbook's `TemplateFields`, or a `MustacheParent` for
/// swift-mustache): both engines get the same values in the shape each reads fastest.
struct ParticipantsView {
    struct Row {
        let id: String, name: String, email: String, phone: String?, venueName: String?

        func field(_ name: String) -> Any? {
            switch name {
            case "name": name
            case "venue_name": venueName
            case "email": email
            case "email_uri": "mailto:" + email
            case "phone": phone
            case "phone_uri": phone.map { "tel:" + $0.filter(\.isNumber) }
            case "path": "/participants/\(id)"
            case "edit_path": "/participants/\(id)/edit"
            case "delete_path": "/participants/\(id)/delete"
            default: nil
            }
        }
    }

    let rows: [Row]
    let total: Int
    /// The area filter's options: as many as a small community's areas.
    let areas = [("", "Any area")] + (0..<40).map { ("\(UUID())".lowercased(), "— Area \($0)") }

    init() {
        let today = CalendarDate("2026-11-20")!
        let demo = DemoCommunity.generate(size: .init(venues: 500, participants: 10_000, activities: 0), seed: 42, today: today,
                                          typeCount: 6, roleCount: 4)
        rows = demo.participants.sorted { $0.name < $1.name }.prefix(50).map { participant in
            Row(id: participant.id.uuidString.lowercased(), name: participant.name, email: participant.email, phone: participant.phone,
                venueName: participant.homes.last.map { demo.venues[$0.venue].name })
        }
        total = demo.participants.count
    }

    /// The content template's view; `fields` wraps each row and option.
    func content<Fields>(_ fields: (@escaping (String) -> Any?) -> Fields) -> [String: Any] {
        func select(_ name: String, _ label: String, _ value: String, _ options: [(String, String)]) -> [String: Any] {
            ["name": name, "id": name, "label": label, "value": value, "type": "text", "options": options.map { option in
                let selected = option.0 == value
                return fields { field in
                    switch field {
                    case "value": option.0
                    case "label": option.1
                    case "selected": selected
                    default: nil
                    }
                }
            }]
        }
        let pages = [1, 2, 3, nil, total / 50].map { number -> [String: Any] in
            guard let number else { return ["gap": true] }
            return ["number": number, "url": number == 1 ? "/participants" : "/participants?page=\(number)", "current": number == 1]
        }
        return [
            "field_q": ["name": "q", "id": "q", "label": "Name or email contains", "value": "", "type": "text"] as [String: Any],
            "field_area_id": select("area_id", "Living in area", "", areas),
            "field_home": select("home", "Home venue", "any", [("any", "Any"), ("with", "Has a home venue"), ("without", "No home venue")]),
            "field_sort": select("sort", "Sort by", "name", [("name", "Name"), ("email", "Email"), ("created", "Date added")]),
            "field_order": select("order", "Order", "asc", [("asc", "Ascending"), ("desc", "Descending")]),
            "show_contacts": true, "show_homes": true,
            "rows": rows.map { row in fields(row.field) },
            "has_rows": true, "is_empty": false, "filtered": false,
            "pagination": [
                "total_text": "\(total) participants", "range_text": "Showing 1 to 50 of \(total)", "has_pages": true,
                "pages": pages, "next_url": "/participants?page=2",
            ] as [String: Any],
            "downloads": ["text": "Download all \(total) participants", "formats": [
                ["href": "/participants/export.csv", "label": "CSV", "description": "spreadsheet"],
                ["href": "/participants/export.json", "label": "JSON", "description": "data"],
            ]] as [String: Any],
            "csrf_token": "k3yT0k3nV4lu3f0rTh3B3nchm4rk", "paths": Self.paths, "views": [:] as [String: String],
            "can_edit": true, "is_admin": true,
        ]
    }

    /// The layout's view around a rendered `body`.
    func layout(body: Any) -> [String: Any] {
        let sections = ["Home", "Map", "Participants", "Activities", "Venues", "Areas", "Analytics", "Sync", "Settings"]
        return [
            "title": "Participants – Fieldbook", "css_url": "/static/css/app.3f2a9c.css", "icon_url": "/static/favicon.1b2c3d.svg",
            "js_url": "/static/js/app.9e8d7c.js", "csrf_token": "k3yT0k3nV4lu3f0rTh3B3nchm4rk", "paths": Self.paths,
            "sync": ["state": "Standalone", "pending_label": "", "last_sync_label": ""],
            "events_url": "/events",
            "user": ["name": "Bench Editor", "role": "editor",
                     "notifications": ["has_unread": true, "unread": 3, "url": "/notifications"] as [String: Any]] as [String: Any],
            "nav": sections.map { ["path": "/\($0.lowercased())", "label": $0, "current": $0 == "Participants"] as [String: Any] },
            "body": body, "page_styles": [String](), "page_scripts": [String](),
        ]
    }

    static let paths: [String: String] = {
        var paths = Dictionary(uniqueKeysWithValues: ["home", "setup", "login", "logout", "account_password", "notifications", "sync",
                                                     "sync_run", "conflicts", "sync_settings", "map", "analytics", "exports", "imports",
                                                     "participant_duplicates"].map { ($0, "/" + $0.replacingOccurrences(of: "_", with: "-")) })
        for kind in ["activity_types", "roles", "areas", "venues", "participants", "activities", "categories"] {
            paths[kind] = "/" + kind
            paths[kind + "_new"] = "/\(kind)/new"
        }
        paths["home"] = "/"
        return paths
    }()
}
