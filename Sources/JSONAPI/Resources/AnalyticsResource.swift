import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// The analytics views' JSON twins: the same typed reports the pages draw, for the same query string.
enum AnalyticsResource {
    private static let rangeFields: [Field] = [
        .of(AnalyticsParameter.range.name, .choice(DateRangePreset.allCases.map(\.rawValue)),
            "A preset range, or custom for the days in from and to; last-12-months unless given, or custom when from or to is"),
        .of(AnalyticsParameter.from.name, .date, "With range=custom: the first day counted (none: from the first record)"),
        .of(AnalyticsParameter.to.name, .date, "With range=custom: the last day counted, on or after from (none: up to the last record)"),
        .of(AnalyticsParameter.areaId.name, .uuid, "Count only this area and every area inside it"),
    ]

    static let engagementDoc = APIOperation(
        id: "getEngagementAnalytics", summary: "Engagement for a date range and an area: totals, activities whose dates overlap the range (any status), "
            + "participation, new records, activities by type and status, participants by role, and the breakdown by area",
        query: rangeFields, success: .json("EngagementReport"), namesRecordInQuery: true, mayBePreparing: true)

    static let growthDoc = APIOperation(
        id: "getGrowthAnalytics", summary: "New participants, activities and assignments per period, with the change against "
            + "the period before and cumulative totals",
        query: rangeFields + [.of(AnalyticsParameter.period.name, .choice(GrowthPeriod.allCases.map(\.rawValue)), "month unless given")],
        success: .json("GrowthReport"), namesRecordInQuery: true, mayBePreparing: true)

    @Sendable static func engagement(_ context: APIContext) throws -> Response {
        APIResponse.ok(try context.database.engagement(selection(context).scope))
    }

    @Sendable static func growth(_ context: APIContext) throws -> Response {
        let selection = try selection(context)
        return APIResponse.ok(try context.database.growth(selection.scope, period: selection.choices.period))
    }

    /// The choices, read strictly: any problem is a 400 that says what to send.
    private static func selection(_ context: APIContext) throws -> AnalyticsSelection {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: true)
        guard selection.problems.isEmpty else {
            // A well-formed choice naming an area that is not there asks for something missing, not something malformed.
            let missingAreaOnly = selection.areaIsMissing && selection.problems.fieldErrors.allSatisfy { $0.field == AnalyticsParameter.areaId.name }
            throw HTTPError(missingAreaOnly ? .notFound : .badRequest, selection.problems.fieldErrors.map { "\($0.field): \($0.message)" }.joined(separator: "; ") + ".")
        }
        return selection
    }

    private static let count = Field.of("count", .integer, required: true)

    static let components: [String: [Field]] = [
        "EngagementReport": [
            .of("from", .date, required: true, nullable: true, "First day counted; null: from the first record"),
            .of("to", .date, required: true, nullable: true, "Last day counted; null: up to the last record"),
            .of("area_id", .uuid, required: true, nullable: true, "The area counted, with every area inside it; null: all areas"),
            .of("total_participants", .integer, required: true, "Participants recorded by the last day"),
            .of("total_activities", .integer, required: true, "Activities starting by the last day"),
            .of("active_activities", .integer, required: true,
                "Activities whose dates overlap the range, whatever their status (not only ACTIVE ones); with area_id, only those held "
                    + "now at a venue in the area counted"),
            .of("ongoing_activities", .integer, required: true,
                "Of active_activities, those with no end date, whatever their status"),
            .of("participation", .integer, required: true, "Participants with an assignment to an activity whose dates overlap the range"),
            .of("new_participants", .integer, required: true, "Participants recorded in the range"),
            .of("new_activities", .integer, required: true, "Activities starting in the range"),
            .of("activities_by_type", .list("GroupCount"), required: true, "Activities whose dates overlap the range, by type"),
            .of("activities_by_status", .list("GroupCount"), required: true,
                "Activities whose dates overlap the range, by status: every status, completed and cancelled included"),
            .of("participants_by_role", .list("GroupCount"), required: true, "Participants taking part, by the role they took"),
            .of("breakdown", .list("AreaEngagement"), required: true,
                "Per child area of the area (per top-level area for all areas), then the area's own venues"),
        ],
        "GroupCount": [
            .of("key", .text, required: true, "The type's or role's id, or the status"), .of("label", .text, required: true), count,
        ],
        "AreaEngagement": [
            .of("area_id", .uuid, required: true), .of("name", .text, required: true),
            .of("is_child_area", .boolean, required: true, "false for the row of the area's own venues"),
            .of("has_areas_inside", .boolean, required: true),
            .of("participants", .integer, required: true),
            .of("active_activities", .integer, required: true,
                "Activities whose dates overlap the range, whatever their status (not only ACTIVE ones), held now at this row's "
                    + "venues"),
            .of("participation", .integer, required: true),
        ],
        "GrowthReport": [
            .of("from", .date, required: true), .of("to", .date, required: true),
            .of("area_id", .uuid, required: true, nullable: true),
            .of("period", .choice(GrowthPeriod.allCases.map(\.rawValue)), required: true),
            .of("requested_period", .choice(GrowthPeriod.allCases.map(\.rawValue)), required: true, nullable: true,
                "The period asked for, when the range had too many and a longer one is shown"),
            .of("series", .list("GrowthSeries"), required: true),
        ],
        "GrowthSeries": [
            .of("measure", .choice(GrowthMeasure.allCases.map(\.rawValue)), required: true), .of("label", .text, required: true),
            .of("before", .integer, required: true, "Records before the first period"), .of("points", .list("GrowthPoint"), required: true),
        ],
        "GrowthPoint": [
            .of("start", .date, required: true), .of("end", .date, required: true), .of("label", .text, required: true),
            .of("partial", .boolean, required: true, "The range cuts the period short"), count,
            .of("cumulative", .integer, required: true, "before plus the running sum"),
            .of("change", .reference("PeriodChange"), required: true),
        ],
        "PeriodChange": [
            .of("direction", .choice(PeriodChange.Direction.allCases.map(\.rawValue)), required: true),
            .of("percent", .number, required: true, nullable: true, "(count - previous) / previous * 100"),
            .of("text", .text, required: true),
        ],
    ]
}
