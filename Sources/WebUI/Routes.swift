import Domain
import HTTPServer
import Records
import Storage
import Surface

/// The HTML surface's route table: every address, who may use it, and its handler.
enum WebRoutes {
    /// The kinds declared only in Records, whose pages derive from their declarations (`DeclaredPages`).
    static var declaredKinds: [any DeclaredKind.Type] { [Note.self] }

    static func register(in table: inout WebRouteTable) {
        table.get(Paths.setup, .anyone, SetupPages.form)
        table.post(Paths.setup, .anyone, SetupPages.submit)
        table.get(Paths.login, .anyone, LoginPages.form)
        table.post(Paths.login, .anyone, LoginPages.submit)
        table.get(Paths.sendAgain, .signedIn, LoginPages.sendAgain)
        table.post(Paths.logout, .signedIn, LoginPages.logout)
        table.get(Paths.home, .signedIn, HomePage.show)
        table.get(Paths.search, .signedIn, SearchPages.show)
        table.get(Paths.events, .signedIn, StatusEventsPage.stream)

        table.get(Paths.notifications, .signedIn, NotificationPages.list)
        table.get(Paths.notificationPreferences, .signedIn, NotificationPages.preferences)
        table.post(Paths.notificationPreferences, .signedIn, NotificationPages.savePreferences)
        table.post(Paths.readAllNotifications, .signedIn, NotificationPages.markAllRead)
        table.getThatWrites(Paths.openNotification, .signedIn, NotificationPages.open)
        table.post(Paths.readNotification, .signedIn, NotificationPages.markRead)

        for kind in CategoryKind.allCases {
            let pages = CategoryPages(kind: kind)
            table.records(Paths.categories(kind), pages.handlers)
        }

        table.records(Paths.areas, AreaPages.self)
        table.records(Paths.venues, VenuePages.self)
        table.records(Paths.activities, ActivityPages.self)
        table.post(Paths.activityCompletion, .editor, ActivityPages.complete)
        table.get(Paths.newAssignment, .editor, AssignmentPages.newForm)
        table.post(Paths.assignments, .editor, AssignmentPages.create)
        table.post(Paths.copyAssignments, .editor, AssignmentPages.copy)
        table.post(Paths.removeAssignments, .editor, AssignmentPages.removeSeveral)
        table.get(Paths.deleteAssignment, .editor, AssignmentPages.deleteConfirmation)
        table.post(Paths.deleteAssignment, .editor, AssignmentPages.delete)

        table.records(Paths.participants, ParticipantPages.self)
        table.get(Paths.participantDuplicates, .editor, ParticipantMergePages.duplicates)
        table.post(Paths.dismissSyncedDuplicate, .editor, ParticipantMergePages.dismiss)
        table.get(Paths.mergeParticipants, .editor, ParticipantMergePages.form)
        table.post(Paths.mergeParticipants, .editor, ParticipantMergePages.merge)

        table.get(Paths.imports, .editor, ImportPages.list)
        table.post(Paths.imports, .editor, ImportPages.upload)
        table.get(Paths.importRecord, .editor, ImportPages.show)
        table.get(Paths.importProgress, .editor, ImportPages.progress)
        table.post(Paths.importColumns, .editor, ImportPages.columns)
        table.post(Paths.importChoices, .editor, ImportPages.choices)
        table.post(Paths.importReferences, .editor, ImportPages.references)
        table.post(Paths.importStart, .editor, ImportPages.start)
        table.post(Paths.importCancel, .editor, ImportPages.cancel)
        table.post(Paths.importReview, .editor, ImportPages.review)
        table.post(Paths.importDelete, .editor, ImportPages.delete)
        table.get(Paths.importRow, .editor, ImportComparePages.form)
        table.post(Paths.importRow, .editor, ImportComparePages.save)

        table.get(Paths.newPhoto, .editor, PhotoPages.newForm)
        table.post(Paths.photos, .editor, PhotoPages.upload)
        table.get(Paths.photo, .signedIn, PhotoPages.show)
        table.get(Paths.editPhoto, .editor, PhotoPages.editForm)
        table.post(Paths.editPhoto, .editor, PhotoPages.update)
        table.get(Paths.deletePhoto, .editor, PhotoPages.deleteConfirmation)
        table.post(Paths.deletePhoto, .editor, PhotoPages.delete)
        table.get(Paths.photoFileByHash, .signedIn, PhotoPages.file)

        table.get(Paths.exports, .signedIn, ExportPages.show)
        table.post(Paths.exportJobs, .editor, ExportJobPages.create)
        table.get(Paths.exportJob, .editor, ExportJobPages.show)
        table.get(Paths.exportJobProgress, .editor, ExportJobPages.progress)
        table.post(Paths.exportJobCancel, .editor, ExportJobPages.cancel)
        table.get(Paths.exportJobDownload, .editor, ExportJobPages.download)
        table.get(Paths.exportEverything, .editor, ExportPages.archive { _ in .everything })
        table.get(Paths.areaExport, .editor, ExportPages.archive { .area(try $0.uuidParameter()) })
        table.get(Paths.activityExport, .editor, ExportPages.archive { .activity(try $0.uuidParameter()) })
        for format in ExportFormat.allCases {
            table.get(Paths.export(Paths.participants, format), .signedIn, ExportPages.participants(format))
            table.get(Paths.export(Paths.venues, format), .signedIn, ExportPages.venues(format))
            table.get(Paths.export(Paths.activities, format), .signedIn, ExportPages.activities(format))
        }

        table.records(Paths.visitLists, VisitListPages.self)
        for kind in declaredKinds { table.records(kind) }
        table.get(Paths.printVisitList, .signedIn, VisitListPages.printable)
        table.get(Paths.visitResults, .signedIn, VisitListPages.results)
        table.get(Paths.myVisits, .signedIn, VisitWalkPages.myVisits)
        table.get(Paths.walkVisitList, .signedIn, VisitWalkPages.walk)
        table.get(Paths.visitStop, .signedIn, VisitWalkPages.stop)
        table.post(Paths.visitListStops, .editor, VisitListPages.addStops)
        table.post(Paths.removeVisitStop, .editor, VisitListPages.removeStop)
        table.post(Paths.contactLogs, .editor, VisitWalkPages.log)
        table.post(Paths.stopFollowUp, .editor, VisitWalkPages.followUp)
        table.get(Paths.offlineVisitList, .signedIn, OfflinePages.visitList)
        table.get(Paths.offlineWorker, .anyone, OfflinePages.worker)

        table.get(Paths.users.list, .administrator, UserPages.list)
        table.get(Paths.users.new, .administrator, UserPages.newForm)
        table.post(Paths.users.new, .administrator, UserPages.create)
        table.get(Paths.users.record, .administrator, UserPages.detail)
        table.get(Paths.users.edit, .administrator, UserPages.editForm)
        table.post(Paths.users.edit, .administrator, UserPages.update)
        table.get(Paths.privacySettings, .administrator, PrivacyPages.show)
        table.post(Paths.privacySettings, .administrator, PrivacyPages.save)
        table.get(Paths.backups, .administrator, BackupPages.show)
        table.post(Paths.backupNow, .administrator, BackupPages.backUpNow)
        table.post(Paths.backupDownload, .administrator, BackupPages.download)
        table.get(Paths.devices, .administrator, DevicePages.show)
        table.get(Paths.authorityPEM, .anyone, DevicePages.authorityPEM)
        table.get(Paths.authorityDER, .anyone, DevicePages.authorityDER)
        table.get(Paths.authorityProfile, .anyone, DevicePages.authorityProfile)
        table.get(Paths.accountPassword, .signedIn, AccountPages.passwordForm)
        table.post(Paths.accountPassword, .signedIn, AccountPages.changePassword)
        table.get(Paths.accountLanguage, .signedIn, LanguagePages.form)
        table.post(Paths.accountLanguage, .signedIn, LanguagePages.save)
        table.get(Paths.userPassword, .administrator, UserPages.passwordForm)
        table.post(Paths.userPassword, .administrator, UserPages.resetPassword)

        table.get(Paths.analytics, .signedIn, AnalyticsPages.engagement)
        table.get(Paths.analyticsGrowth, .signedIn, AnalyticsPages.growth)
        table.get(Paths.analyticsTable, .signedIn, AnalyticsPages.csv)

        table.get(Paths.sync, .signedIn, SyncPages.show)
        table.post(Paths.syncRun, .editor, SyncPages.run)
        table.post(Paths.syncPause, .editor, SyncPages.pause)
        table.post(Paths.syncResume, .editor, SyncPages.resume)
        table.post(Paths.syncCancel, .editor, SyncPages.cancel)
        table.post(Paths.retryFailedOperation, .editor, SyncPages.retry)
        table.get(Paths.discardFailedOperation, .editor, SyncPages.discardConfirmation)
        table.post(Paths.discardFailedOperation, .editor, SyncPages.discard)
        table.get(Paths.conflicts, .signedIn, ConflictPages.list)
        table.post(Paths.reapplyConflict, .editor, ConflictPages.reapply)
        table.post(Paths.dismissConflict, .editor, ConflictPages.dismiss)
        table.get(Paths.map, .signedIn, MapPages.show)
        table.get(Paths.tile, .signedIn, MapPages.tile)
        table.get(Paths.mapSettings, .administrator, MapSettingsPages.show)
        table.post(Paths.mapSettings, .administrator, MapSettingsPages.save)
        table.post(Paths.tileUpload, .administrator, MapSettingsPages.upload)

        table.get(Paths.syncSettings, .administrator, SyncSettingsPages.show)
        table.post(Paths.syncSettings, .administrator, SyncSettingsPages.link)
        table.post(Paths.syncInterval, .administrator, SyncSettingsPages.saveInterval)
        table.post(Paths.hubSignIn, .administrator, SyncSettingsPages.signInAgain)
        table.get(Paths.unlink, .administrator, SyncSettingsPages.unlinkConfirmation)
        table.post(Paths.unlink, .administrator, SyncSettingsPages.unlink)
        table.get(Paths.linkedNodes, .administrator, LinkedNodePages.list)
        table.post(Paths.revokeLinkedNode, .administrator, LinkedNodePages.revoke)
    }
}

/// The page handlers of one kind of record: list, detail, create, edit and delete.
struct RecordPageHandlers {
    let list: PageHandler
    let newForm: PageHandler
    /// The new form filled in with the values the request carries, saving nothing.
    let filledNewForm: PageHandler
    let create: PageHandler
    let detail: PageHandler
    let editForm: PageHandler
    /// The edit form filled in with the values the request carries, at the version they were typed on, saving nothing.
    let filledEditForm: PageHandler
    let update: PageHandler
    let deleteConfirmation: PageHandler
    let delete: PageHandler
}

/// A kind of record whose pages are static handlers.
protocol RecordPages {
    static func list(_ context: inout PageContext) throws -> Response
    static func newForm(_ context: inout PageContext) throws -> Response
    static func filledNewForm(_ context: inout PageContext) throws -> Response
    static func create(_ context: inout PageContext) throws -> Response
    static func detail(_ context: inout PageContext) throws -> Response
    static func editForm(_ context: inout PageContext) throws -> Response
    static func filledEditForm(_ context: inout PageContext) throws -> Response
    static func update(_ context: inout PageContext) throws -> Response
    static func deleteConfirmation(_ context: inout PageContext) throws -> Response
    static func delete(_ context: inout PageContext) throws -> Response
}

extension WebRouteTable {
    mutating func records<Pages: RecordPages>(_ routes: RecordRoutes, _ pages: Pages.Type) {
        records(routes, RecordPageHandlers(list: Pages.list, newForm: Pages.newForm, filledNewForm: Pages.filledNewForm,
                                           create: Pages.create, detail: Pages.detail, editForm: Pages.editForm,
                                           filledEditForm: Pages.filledEditForm, update: Pages.update,
                                           deleteConfirmation: Pages.deleteConfirmation, delete: Pages.delete))
    }

    /// The eight routes of a record kind: anyone signed in reads, editors change. The create and edit forms show
    /// themselves again with what was typed when their session had ended (`form`).
    mutating func records(_ routes: RecordRoutes, _ handlers: RecordPageHandlers) {
        get(routes.list, .signedIn, handlers.list)
        get(routes.new, .editor, handlers.newForm)
        form(routes.new, .editor, show: handlers.filledNewForm, save: handlers.create)
        get(routes.record, .signedIn, handlers.detail)
        get(routes.edit, .editor, handlers.editForm)
        form(routes.edit, .editor, show: handlers.filledEditForm, save: handlers.update)
        get(routes.delete, .editor, handlers.deleteConfirmation)
        post(routes.delete, .editor, handlers.delete)
    }
}
