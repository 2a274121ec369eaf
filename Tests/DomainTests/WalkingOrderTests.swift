import Domain
import Foundation
import PropertyBased
import Testing

/// The walking order of a visit list (issue 12).
@Suite struct WalkingOrderTests {
    struct Stop: Equatable {
        let index: Int
        let point: Coordinate?
    }

    // Feature: field visits, Property: the distance sort is a valid nearest-neighbour order from the start.
    @Test func distanceSortIsAValidNearestNeighbourOrderFromTheStart() async {
        await propertyCheck(count: 200, input: Gen.int(in: -5000...5000).array(of: 0...60), Gen.int(in: 0...9).array(of: 60),
                            Gen.int(in: -5000...5000).array(of: 2)) { offsets, blanks, start in
            // Points within about 5 km of a town, some stops without coordinates, and duplicates allowed (ties).
            let origin = Coordinate(latitude: -1.29 + Double(start[0]) / 100_000, longitude: 36.82 + Double(start[1]) / 100_000)
            let stops = offsets.enumerated().map { index, offset in
                Stop(index: index, point: blanks[index] == 0 ? nil
                     : Coordinate(latitude: -1.29 + Double(offset) / 100_000, longitude: 36.82 + Double(offsets[(index * 7) % offsets.count]) / 100_000))
            }
            let order = WalkingOrder.nearestNeighbour(from: origin, stops) { $0.point }

            #expect(order.map(\.index).sorted() == stops.map(\.index), "every stop exactly once")
            let placed = order.prefix { $0.point != nil }
            #expect(order.dropFirst(placed.count).allSatisfy { $0.point == nil }, "stops without coordinates come last")
            #expect(order.dropFirst(placed.count).map(\.index) == stops.filter { $0.point == nil }.map(\.index), "in the order given")
            var here = origin
            for (step, stop) in placed.enumerated() {
                let chosen = here.distance(to: stop.point!)
                let nearest = placed.dropFirst(step).map { here.distance(to: $0.point!) }.min()!
                #expect(chosen <= nearest, "step \(step): went \(chosen) m while a stop \(nearest) m away was left")
                here = stop.point!
            }
        }
    }

    @Test func distancesAreGreatCircleMetres() {
        let nairobi = Coordinate(latitude: -1.2921, longitude: 36.8219), mombasa = Coordinate(latitude: -4.0435, longitude: 39.6682)
        #expect(abs(nairobi.distance(to: mombasa) - 440_000) < 5_000)
        #expect(nairobi.distance(to: nairobi) == 0)
        #expect(WalkingOrder.label(metres: 347) == "350 m")
        #expect(WalkingOrder.label(metres: 1234) == "1.2 km")
    }

    @Test func aLogNeedsAResultAndOtherNeedsANote() {
        #expect(throws: ValidationError.self) { try ContactLogInput(result: "").validated() }
        #expect(throws: ValidationError.self) { try ContactLogInput(result: "OTHER").validated() }
        #expect(throws: ValidationError.self) { try ContactLogInput(result: "MET", latitude: "1").validated() }
        let valid = try? ContactLogInput(result: "MET", latitude: "-1.5", longitude: "36.8", accuracy: "12").validated()
        #expect(valid?.location?.accuracy == 12)
    }
}
