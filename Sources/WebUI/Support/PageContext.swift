import Domain
import Foundation
import HTTPServer
import Surface
import Storage
import Sync
import Translations

/// The sections of the main navigation; each page names the one it belongs to.
enum Section: String, CaseIterable {
    case home, map, myVisits, visitLists, activities, participants, venues, areas, analytics, activityTypes, roles, users, sync

    var label: Message {
        switch self {
        case .home: Message("Home")
        case .map: Message("Map")
        case .myVisits: Message("My visits")
        case .visitLists: Message("Visit lists")
        case .activities: Message("Activities")
        case .participants: Message("Participants")
        case .venues: Message("Venues")
        case .areas: Message("Areas")
        case .analytics: Message("Analytics")
        case .activityTypes: Message("Activity types")
        case .roles: Message("Roles", context: "participants' roles in activities")
        case .users: Message("Users")
        case .sync: Message("Sync")
        }
    }

    var path: String {
        switch self {
        case .home: Paths.home()
        case .map: Paths.map()
        case .myVisits: Paths.myVisits()
        case .visitLists: Paths.visitLists.list()
        case .activities: Paths.activities.list()
        case .participants: Paths.participants.list()
        case .venues: Paths.venues.list()
        case .areas: Paths.areas.list()
        case .analytics: Paths.analytics()
        case .activityTypes: Paths.activityTypes.list()
        case .roles: Paths.roles.list()
        case .users: Paths.users.list()
        case .sync: Paths.sync()
        }
    }

    func isVisible(to user: User) -> Bool {
        switch self {
        case .users: user.role.canAdminister
        case .myVisits: user.role.canEditRecords
        default: true
        }
    }
}

/// Everything a page handler needs for one request: who is asking, their form token, and how to answer.
struct PageContext {
    let request: Request
    let session: SignedInSession?
    let csrfToken: String
    /// Cookies the answer must set (a new anonymous CSRF token, a cleared flash message).
    var cookies: [Cookie]
    let flash: String?
    let web: WebUI
    /// The user whose session the request's cookie named, when that session has ended (`SessionLookup.endedSessionUser`):
    /// a form it sends is kept for that user alone.
    var endedSessionUser: UUID? = nil
    /// This page says nobody is signed in (the sign-in page, shown after signing out or when a session ended): a phone
    /// forgets the lists taken on it only on such a page, not on any page that happens to have no user.
    var saysNobodyIsSignedIn = false

    var user: User? { session?.user }
    var database: AppDatabase { web.database }

    /// The sync status, read once per request: the header and the page's own figures then show the same counts.
    var syncStatus: SyncStatus { syncStatusOnce.value { web.syncStatus.current() } }
    private let syncStatusOnce = ReadOnce<SyncStatus>()

    /// The reader's language: their account's setting, else their browser's, else English (`Languages.choose`).
    var translator: Translator {
        translatorOnce.value {
            web.renderer.languages.choose(account: user?.language, acceptLanguage: request.header("accept-language"))
        }
    }
    private let translatorOnce = ReadOnce<Translator>()

    /// The signed-in user; routes that need one are only reached with a session.
    var signedInUser: User {
        get throws {
            guard let user else { throw AccessDenied(message: "Sign in to see this page.") }
            return user
        }
    }

    var actor: Actor { user.map { .user($0.id) } ?? .system("anonymous") }

    /// The remembered sections' list addresses with the person's last view, as templates name them (`{{views.participants}}`
    /// in breadcrumbs; `{{paths.participants}}` stays the plain list, for "Clear filters").
    var rememberedViews: TemplateView {
        let names: [Section: String] = [.activities: "activities", .participants: "participants", .venues: "venues",
                                        .visitLists: "visit_lists", .map: "map"]
        return TemplateView(Dictionary(uniqueKeysWithValues: ListViewMemory.sections.map {
            (names[$0]!, TemplateValue.text(web.listViews.address(of: $0, for: user?.id)))
        }))
    }

    /// What the signed-in person may see of participants (the administrators' privacy setting).
    var participantVisibility: ParticipantVisibility {
        get throws {
            guard let role = user?.role else { return .everything }
            // Only a read-only user's view depends on the settings: others' needs no read.
            return role == .readOnly ? try database.privacySettings().visibility(for: role) : PrivacySettings().visibility(for: role)
        }
    }

    /// Notes a remembered list's view (its query string) for the signed-in person.
    func rememberListView(_ section: Section) {
        guard let user, request.method == .get else { return }
        web.listViews.remember(QueryString.encode(request.query), of: section, for: user.id)
    }

    /// Renders a page template inside the layout.
    /// `assets` names the page's own stylesheets and scripts in Public/ (or a mounted folder), loaded after the app's.
    func page(_ template: String, title: Message, section: Section?, view: TemplateView = [:],
              status: HTTPStatus = .ok, hasErrors: Bool = false, assets: [String] = []) -> Response {
        var pageView = view
        pageView["csrf_token"] = csrfToken
        pageView["paths"] = Paths.templateView
        pageView["views"] = rememberedViews
        pageView["can_edit"] = user?.role.canEditRecords ?? false
        pageView["is_admin"] = user?.role.canAdminister ?? false
        let body = RenderedHTML(bytes: web.renderer.renderBytes(template, pageView, in: translator))
        var layout = layoutView(title: title, section: section, hasErrors: hasErrors)
        layout["body"] = body
        layout["page_styles"] = assets.filter { $0.hasSuffix(".css") }.map(web.staticFiles.url(for:))
        layout["page_scripts"] = assets.filter { $0.hasSuffix(".js") }.map(web.staticFiles.url(for:))
        var response = Response.html(bytes: web.renderer.renderBytes("layout", layout, in: translator), status: status)
        cookies.forEach { response.setCookie($0) }
        return response
    }

    /// A page whose title is not marked for translation yet: shown as it is in every language.
    func page(_ template: String, title: String, section: Section?, view: TemplateView = [:],
              status: HTTPStatus = .ok, hasErrors: Bool = false, assets: [String] = []) -> Response {
        page(template, title: Message.verbatim(title), section: section, view: view, status: status, hasErrors: hasErrors,
             assets: assets)
    }

    /// The one-time message is translated now, into the language of the person it is for, since the cookie that
    /// carries it to the next page holds text.
    func redirect(to location: String, flash message: Message) -> Response {
        redirect(to: location, flash: translator.text(message))
    }

    /// Post/Redirect/Get with an optional one-time message for the next page.
    func redirect(to location: String, flash message: String? = nil) -> Response {
        var response = Response.redirect(to: location)
        cookies.forEach { response.setCookie($0) }
        if let message {
            response.setCookie(Cookie(name: CookieName.flash, value: QueryString.escape(message), secure: request.isTLS, sameSite: "Strict"))
        }
        return response
    }

    private func layoutView(title: Message, section: Section?, hasErrors: Bool) -> TemplateView {
        var view: TemplateView = [
            "title": hasErrors ? Message("Error: {title} – Fieldbook", ["title": .message(title)])
                : Message("{title} – Fieldbook", ["title": .message(title)]),
            "language": translator.language,
            "direction": translator.direction.rawValue,
            "css_url": web.staticFiles.url(for: "css/app.css"),
            "icon_url": web.staticFiles.url(for: "favicon.svg"),
            "js_url": web.staticFiles.url(for: "js/app.js"),
            "csrf_token": csrfToken,
            "paths": Paths.templateView,
            "sync": SyncStatusText(status: syncStatus, translator: translator).layoutView,
        ]
        if let flash { view["flash"] = flash }
        view["offline_js_urls"] = OfflinePages.pageScripts.map(web.staticFiles.url(for:))
        view["signed_out"] = saysNobodyIsSignedIn && user == nil
        if let user {
            view["events_url"] = Paths.events()
            // The results page keeps its words in the box, to change them.
            if request.path == Paths.search() { view["search_query"] = request.query(.text) ?? "" }
            // The id: a visit kept on a shared phone is sent only under the session of the person who logged it.
            view["user"] = ["id": user.id.lowercaseText, "name": user.name, "role": user.role.message] as TemplateView
            let unread = (try? database.unreadNotificationCount(for: user.id)) ?? 0
            view["notifications"] = ["url": Paths.notifications(), "unread_text": NotificationPages.bellCount(unread), "has_unread": unread > 0,
                                     "texts": NotificationPages.arrivalTexts.json(translator)] as TemplateView
            view["nav"] = Section.allCases.filter { $0.isVisible(to: user) }.map { item -> TemplateView in
                ["label": item.label, "path": web.listViews.address(of: item, for: user.id), "current": item == section]
            }
        }
        return view
    }
}

/// A value worked out the first time it is asked for and kept for the rest of one request (which one thread serves).
final class ReadOnce<Value>: @unchecked Sendable {
    private var stored: Value?

    func value(_ make: () -> Value) -> Value {
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }
}

/// The signed-in user's role does not allow this page or action.
struct AccessDenied: HTTPResponseError {
    var message: String
    var status: HTTPStatus { .forbidden }
    var publicMessage: String { message }
}

extension Request {
    /// A form value, or "" when absent.
    func field(_ name: String) -> String { form[name] ?? "" }

    /// The `{id}` path parameter as a UUID; a malformed id is a page that does not exist.
    func uuidParameter(_ name: String = "id") throws -> UUID {
        guard let text = pathParameter(name), let id = UUID(uuidString: text) else { throw HTTPError.notFound(path) }
        return id
    }
}

extension UserRole {
    /// The role's name, translated where it is shown.
    var message: Message {
        switch self {
        case .administrator: Message("Administrator")
        case .editor: Message("Editor")
        case .readOnly: Message("Read-only")
        }
    }
}
