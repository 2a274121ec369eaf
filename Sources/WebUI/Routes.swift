import Domain

/// The HTML surface's route table: every address, who may use it, and its handler.
enum WebRoutes {
    static func register(in table: inout WebRouteTable) {
        table.get("/setup", .anyone, SetupPages.form)
        table.post("/setup", .anyone, SetupPages.submit)
        table.get("/login", .anyone, LoginPages.form)
        table.post("/login", .anyone, LoginPages.submit)
        table.post("/logout", .signedIn, LoginPages.logout)
        table.get("/", .signedIn, HomePage.show)
        table.get("/events", .signedIn, StatusEventsPage.stream)

        for kind in CategoryKind.allCases {
            let pages = CategoryPages(kind: kind)
            let base = pages.basePath
            table.get(base, .signedIn, pages.list)
            table.get(base + "/new", .editor, pages.newForm)
            table.post(base + "/new", .editor, pages.create)
            table.get(base + "/{id}", .signedIn, pages.detail)
            table.get(base + "/{id}/edit", .editor, pages.editForm)
            table.post(base + "/{id}/edit", .editor, pages.update)
            table.get(base + "/{id}/delete", .editor, pages.deleteConfirmation)
            table.post(base + "/{id}/delete", .editor, pages.delete)
        }

        table.get("/areas", .signedIn, AreaPages.list)
        table.get("/areas/new", .editor, AreaPages.newForm)
        table.post("/areas/new", .editor, AreaPages.create)
        table.get("/areas/{id}", .signedIn, AreaPages.detail)
        table.get("/areas/{id}/edit", .editor, AreaPages.editForm)
        table.post("/areas/{id}/edit", .editor, AreaPages.update)
        table.get("/areas/{id}/delete", .editor, AreaPages.deleteConfirmation)
        table.post("/areas/{id}/delete", .editor, AreaPages.delete)

        table.get("/venues", .signedIn, VenuePages.list)
        table.get("/venues/new", .editor, VenuePages.newForm)
        table.post("/venues/new", .editor, VenuePages.create)
        table.get("/venues/{id}", .signedIn, VenuePages.detail)
        table.get("/venues/{id}/edit", .editor, VenuePages.editForm)
        table.post("/venues/{id}/edit", .editor, VenuePages.update)
        table.get("/venues/{id}/delete", .editor, VenuePages.deleteConfirmation)
        table.post("/venues/{id}/delete", .editor, VenuePages.delete)

        table.get("/activities", .signedIn, ActivityPages.list)
        table.get("/activities/new", .editor, ActivityPages.newForm)
        table.post("/activities/new", .editor, ActivityPages.create)
        table.get("/activities/{id}", .signedIn, ActivityPages.detail)
        table.get("/activities/{id}/edit", .editor, ActivityPages.editForm)
        table.post("/activities/{id}/edit", .editor, ActivityPages.update)
        table.get("/activities/{id}/delete", .editor, ActivityPages.deleteConfirmation)
        table.post("/activities/{id}/delete", .editor, ActivityPages.delete)
        table.post("/activities/{id}/completion", .editor, ActivityPages.complete)
        table.get("/activities/{id}/assignments/new", .editor, AssignmentPages.newForm)
        table.post("/activities/{id}/assignments", .editor, AssignmentPages.create)
        table.get("/activities/{id}/assignments/{assignmentId}/delete", .editor, AssignmentPages.deleteConfirmation)
        table.post("/activities/{id}/assignments/{assignmentId}/delete", .editor, AssignmentPages.delete)

        table.get("/participants", .signedIn, ParticipantPages.list)
        table.get("/participants/new", .editor, ParticipantPages.newForm)
        table.post("/participants/new", .editor, ParticipantPages.create)
        table.get("/participants/{id}", .signedIn, ParticipantPages.detail)
        table.get("/participants/{id}/edit", .editor, ParticipantPages.editForm)
        table.post("/participants/{id}/edit", .editor, ParticipantPages.update)
        table.get("/participants/{id}/delete", .editor, ParticipantPages.deleteConfirmation)
        table.post("/participants/{id}/delete", .editor, ParticipantPages.delete)

        table.get("/users", .administrator, UserPages.list)
        table.get("/users/new", .administrator, UserPages.newForm)
        table.post("/users/new", .administrator, UserPages.create)
        table.get("/users/{id}", .administrator, UserPages.detail)
        table.get("/users/{id}/edit", .administrator, UserPages.editForm)
        table.post("/users/{id}/edit", .administrator, UserPages.update)
        table.get("/users/{id}/password", .administrator, UserPages.passwordForm)
        table.post("/users/{id}/password", .administrator, UserPages.resetPassword)
    }
}
