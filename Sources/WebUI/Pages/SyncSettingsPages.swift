import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Sync
import Translations

/// /settings/sync, for administrators: link this Fieldbook to a hub, sign it in there again, set how often it syncs,
/// unlink it.
/// The hub password is used once to sign in and never kept; the refresh token it yields never reaches a page.
enum SyncSettingsPages {
    static func show(_ context: inout PageContext) throws -> Response {
        try page(&context, link: LinkForm(upstream: "", email: ""), errors: ValidationError(), interval: nil)
    }

    static func link(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let form = LinkForm(upstream: request.field("upstream").trimmingCharacters(in: .whitespaces),
                            email: request.field("email").trimmingCharacters(in: .whitespaces))
        var errors = ValidationError()
        let url = URL(string: form.upstream)
        if form.upstream.isEmpty { errors.add("upstream", "Enter the hub's address, like http://192.168.1.20:8080") }
        else if url?.host == nil || !["http", "https"].contains(url?.scheme ?? "") {
            errors.add("upstream", "Enter the hub's address starting with http:// or https://, like http://192.168.1.20:8080")
        }
        if form.email.isEmpty { errors.add("email", "Enter the email of an administrator account on the hub") }
        if request.field("password").isEmpty { errors.add("password", "Enter that account's password on the hub") }
        if errors.isEmpty, let url {
            do {
                let authority = try HubLinker.link(context.database, upstream: url, email: form.email, password: request.field("password"))
                context.web.syncEngine?.linkChanged()
                let linked = "Linked to \(url.absoluteString). The first sync brings a full copy of the hub's records."
                return context.redirect(to: Paths.sync(), flash: authority.map { linked + " " + HubLinker.trustNotice($0) } ?? linked)
            } catch let failure as HubLinker.Failure {
                errors.add(failure.cause == .account ? "password" : "upstream", failure.description)
            }
        }
        return try page(&context, link: form, errors: errors, interval: nil, status: .unprocessableContent)
    }

    /// Signs a linked node in to its hub anew (its sign-in was refused), with a hub administrator's email and password:
    /// a new node credential; the queue and everything synced stay.
    static func signInAgain(_ context: inout PageContext) throws -> Response {
        let email = context.request.field("email").trimmingCharacters(in: .whitespaces)
        let password = context.request.field("password")
        var errors = ValidationError()
        if email.isEmpty { errors.add("email", "Enter the email of an administrator account on the hub") }
        if password.isEmpty { errors.add("password", "Enter that account's password on the hub") }
        if errors.isEmpty {
            do {
                try HubLinker.signInAgain(context.database, upstream: context.web.syncEngine?.upstreamOverride, email: email, password: password)
                context.web.syncEngine?.linkChanged()
                return context.redirect(to: Paths.sync(), flash: Message("Signed in to the hub again. The changes waiting here are being sent."))
            } catch let failure as HubLinker.Failure {
                errors.add(failure.cause == .account ? "password" : "email", failure.description)
            }
        }
        return try page(&context, link: LinkForm(upstream: "", email: email), errors: errors, interval: nil, status: .unprocessableContent)
    }

    static func saveInterval(_ context: inout PageContext) throws -> Response {
        let text = context.request.field("minutes").trimmingCharacters(in: .whitespaces)
        guard let minutes = Int(text), (1...1440).contains(minutes) else {
            let errors = ValidationError([FieldError(field: "minutes", message: "Enter a whole number of minutes from 1 to 1440 (a day)")])
            return try page(&context, link: LinkForm(upstream: "", email: ""), errors: errors, interval: text, status: .unprocessableContent)
        }
        try context.database.setSyncInterval(minutes * 60)
        context.web.syncEngine?.wake(reason: "interval changed")
        return context.redirect(to: Paths.syncSettings(), flash: Message("Fieldbook now syncs every {count} minute, and at once after each change.",
                                                                       plural: "Fieldbook now syncs every {count} minutes, and at once after each change.",
                                                                       count: minutes))
    }

    static func unlinkConfirmation(_ context: inout PageContext) throws -> Response {
        guard let link = try context.database.hubLink() else { return context.redirect(to: Paths.syncSettings()) }
        let pending = try context.database.pendingOperationCount()
        return context.page("settings/unlink", title: Message("Unlink from the hub"), section: .sync,
                            view: ["hub_address": link.upstream.absoluteString, "pending": pending, "has_pending": pending > 0])
    }

    static func unlink(_ context: inout PageContext) throws -> Response {
        try context.database.unlinkHub()
        context.web.syncEngine?.linkChanged()
        return context.redirect(to: Paths.syncSettings(), flash: Message("Unlinked. This Fieldbook is standalone now; its queued changes stay for a later link."))
    }

    private struct LinkForm {
        let upstream: String
        let email: String
    }

    private static func page(_ context: inout PageContext, link form: LinkForm, errors: ValidationError, interval: String?,
                             status: HTTPStatus = .ok) throws -> Response {
        var view: TemplateView
        if let link = try context.database.hubLink() {
            var linkedForm = FormView(errors: errors)
            let minutes = try context.database.syncInterval() / 60
            linkedForm.input("minutes", label: Message("Sync automatically every (minutes)"), value: interval ?? String(max(1, minutes)),
                               type: "text", hint: Message("From 1 to 1440. Fieldbook also syncs right after each change and when you press Sync now."))
            linkedForm.input("email", label: Message("Administrator email on the hub"), value: form.email, type: "email", autocomplete: "off")
            linkedForm.input("password", label: Message("Password on the hub"), value: "", type: "password",
                               hint: Message("Used once to make this node's own sign-in; Fieldbook does not keep it."), autocomplete: "off")
            view = linkedForm.view
            view["credential_refused"] = context.syncStatus.hub == .refused
            if let override = context.web.syncEngine?.intervalOverride {
                view["interval_override"] = "Fieldbook was started with --sync-interval \(Int(override)), so it syncs "
                    + "\(Self.spoken(seconds: Int(override))) whatever this setting says. "
                    + "The setting below applies when Fieldbook is started without that option."
            }
            view["linked"] = true
            view["hub_address"] = link.upstream.absoluteString
            view["hub_email"] = link.email
            view["linked_since"] = DateText.format(link.linkedAt)
        } else {
            var linkForm = FormView(errors: errors)
            linkForm.input("upstream", label: Message("Hub address"), value: form.upstream, type: "text",
                           hint: Message("The address of the Fieldbook that collects everyone's records, like http://192.168.1.20:8080"), autocomplete: "url")
            linkForm.input("email", label: Message("Administrator email on the hub"), value: form.email, type: "email", autocomplete: "off")
            linkForm.input("password", label: Message("Password on the hub"), value: "", type: "password",
                           hint: Message("Used once to sign in; Fieldbook does not keep it."), autocomplete: "off")
            view = linkForm.view
            view["linked"] = false
        }
        return context.page("settings/sync", title: Message("Sync settings"), section: .sync, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    /// "every 30 seconds", "every 5 minutes", "every minute".
    static func spoken(seconds: Int) -> String {
        if seconds % 60 == 0 { return seconds == 60 ? "every minute" : "every \(seconds / 60) minutes" }
        return seconds == 1 ? "every second" : "every \(seconds) seconds"
    }
}
