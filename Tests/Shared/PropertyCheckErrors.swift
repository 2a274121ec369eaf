import PropertyBased
import Testing

// PropertyBased 0.x ignores an error thrown by a property's body (`try?` around it), so a property that throws before
// its first #expect passes without checking anything. These overloads, declared in each test target (this file is
// linked into each), shadow the library's and record a thrown error as an issue, so the property fails.

func propertyCheck<InA, OutA>(
    count: Int = 100, input g0: Generator<OutA, some Sequence<InA>>, perform body: (OutA) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
) async {
    await PropertyBased.propertyCheck(count: count, input: g0, perform: { a in
        do { try await body(a) } catch { Issue.record(error, sourceLocation: sourceLocation) }
    }, isolation: isolation, sourceLocation: sourceLocation)
}

func propertyCheck<InA, InB, OutA, OutB>(
    count: Int = 100, input g0: Generator<OutA, some Sequence<InA>>, _ g1: Generator<OutB, some Sequence<InB>>,
    perform body: (OutA, OutB) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
) async {
    await PropertyBased.propertyCheck(count: count, input: g0, g1, perform: { a, b in
        do { try await body(a, b) } catch { Issue.record(error, sourceLocation: sourceLocation) }
    }, isolation: isolation, sourceLocation: sourceLocation)
}

func propertyCheck<InA, InB, InC, OutA, OutB, OutC>(
    count: Int = 100, input g0: Generator<OutA, some Sequence<InA>>, _ g1: Generator<OutB, some Sequence<InB>>,
    _ g2: Generator<OutC, some Sequence<InC>>, perform body: (OutA, OutB, OutC) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
) async {
    await PropertyBased.propertyCheck(count: count, input: g0, g1, g2, perform: { a, b, c in
        do { try await body(a, b, c) } catch { Issue.record(error, sourceLocation: sourceLocation) }
    }, isolation: isolation, sourceLocation: sourceLocation)
}
