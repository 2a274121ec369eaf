import HTTPServer

/// GET /events: the live sync status as Server-Sent Events, for the status line every page shows.
enum StatusEventsPage {
    static func stream(_ context: inout PageContext) throws -> Response {
        // The context's cookies are not set here: this background request must not consume a page's flash message.
        var response = Response.stream(contentType: "text/event-stream", context.web.syncStatus.subscribe())
        response.setHeader("X-Accel-Buffering", "no") // a buffering proxy would hold events back
        return response
    }
}
