import Foundation

/// A point on the Earth in decimal degrees.
public struct Coordinate: Sendable, Equatable, Hashable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) { (self.latitude, self.longitude) = (latitude, longitude) }

    /// Great-circle distance in metres (haversine, mean Earth radius).
    public func distance(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians, dLon = (other.longitude - longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(a)))
    }
}

/// The order to walk a list's stops in: from the start, always to the nearest stop not yet visited (greedy nearest
/// neighbour). It is not the shortest tour, but every step is one a person on the doorstep would choose, and it is
/// quick for a list of hundreds. Stops without coordinates cannot be placed and come last, in the order given.
public enum WalkingOrder {
    public static func nearestNeighbour<Stop>(from start: Coordinate, _ stops: [Stop], at coordinate: (Stop) -> Coordinate?) -> [Stop] {
        var remaining = stops.enumerated().compactMap { index, stop in coordinate(stop).map { (index: index, point: $0) } }
        let unplaced = stops.enumerated().filter { coordinate($0.element) == nil }.map(\.element)
        var order: [Stop] = []
        var here = start
        while !remaining.isEmpty {
            // Ties go to the stop listed first, so the order is the same every time.
            var best = 0
            var bestDistance = here.distance(to: remaining[0].point)
            for candidate in 1..<remaining.count {
                let distance = here.distance(to: remaining[candidate].point)
                if distance < bestDistance { (best, bestDistance) = (candidate, distance) }
            }
            let next = remaining.remove(at: best)
            order.append(stops[next.index])
            here = next.point
        }
        return order + unplaced
    }

    /// A distance for people: "350 m", "1.2 km".
    public static func label(metres: Double) -> String {
        let shown = rounded(metres: metres)
        return shown.amount + (shown.inKilometres ? " km" : " m")
    }

    /// The distance as people read it: metres to the nearest ten below a kilometre, else kilometres to one decimal.
    public static func rounded(metres: Double) -> (amount: String, inKilometres: Bool) {
        metres < 1000 ? (String(Int((metres / 10).rounded()) * 10), false) : (String(format: "%.1f", metres / 1000), true)
    }
}
