import HTTPServer

/// GET /events: the live sync status as Server-Sent Events, for the status line every page shows, and the person's own
/// notifications (their topic: only their streams receive them).
enum StatusEventsPage {
    static func stream(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser
        // The context's cookies are not set here: this background request must not consume a page's flash message.
        let stream = context.web.syncStatus.subscribe(userId: user.id, translator: context.translator,
                                                      opening: context.web.notificationEvents.opening(for: user.id))
        var response = Response.stream(contentType: "text/event-stream", stream)
        response.setHeader("X-Accel-Buffering", "no") // a buffering proxy would hold events back
        return response
    }
}
