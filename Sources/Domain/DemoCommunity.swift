import Foundation

/// A deterministic random number generator (SplitMix64), so a seed always yields the same demo community.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// A realistic community to try Fieldbook with and to benchmark it: pure values, no I/O.
public struct DemoCommunity: Sendable {
    /// An area to create; `parent` indexes an earlier area.
    public struct Area: Sendable { public let id: UUID; public let name: String; public let type: AreaType; public let parent: Int? }
    public struct Venue: Sendable {
        public let id: UUID; public let name: String; public let address: String; public let area: Int
        public let latitude: Double; public let longitude: Double; public let type: VenueType
    }
    public struct Participant: Sendable {
        public let id: UUID; public let name: String; public let email: String; public let phone: String?; public let notes: String?
        /// Home venues, oldest first, each with the day it applies from; the last one is current.
        public let homes: [(venue: Int, from: CalendarDate)]
    }
    public struct Activity: Sendable {
        public let id: UUID; public let name: String; public let typeIndex: Int; public let start: CalendarDate; public let end: CalendarDate?
        public let status: ActivityStatus; public let venues: [Int]
        /// (participant index, role index) pairs, unique.
        public let assignments: [(participant: Int, role: Int)]
    }

    public let areas: [Area]
    public let venues: [Venue]
    public let participants: [Participant]
    public let activities: [Activity]

    /// Sizes of a generated community.
    public struct Size: Sendable {
        public var venues: Int, participants: Int, activities: Int
        public init(venues: Int, participants: Int, activities: Int) {
            self.venues = venues
            self.participants = participants
            self.activities = activities
        }
    }

    /// Generates a community around five real cities; `typeCount`/`roleCount` are the activity types and roles to use.
    public static func generate(size: Size, seed: UInt64, today: CalendarDate, typeCount: Int, roleCount: Int) -> DemoCommunity {
        var random = SeededGenerator(seed: seed)
        let (areas, neighbourhoods) = makeAreas(&random)
        let venues = (0..<size.venues).map { makeVenue($0, neighbourhoods: neighbourhoods, areas: areas, &random) }
        let participants = (0..<size.participants).map { makeParticipant($0, venueCount: venues.count, today: today, &random) }
        let activities = (0..<size.activities).map {
            makeActivity($0, venueCount: venues.count, participantCount: participants.count, typeCount: typeCount,
                         roleCount: roleCount, today: today, &random)
        }
        return DemoCommunity(areas: areas, venues: venues, participants: participants, activities: activities)
    }

    static let cities: [(city: String, region: String, regionType: AreaType, country: String, continent: String, lat: Double, lon: Double)] = [
        ("Nairobi", "Nairobi County", .county, "Kenya", "Africa", -1.2921, 36.8219),
        ("Toronto", "Ontario", .province, "Canada", "North America", 43.6532, -79.3832),
        ("Manchester", "Greater Manchester", .county, "United Kingdom", "Europe", 53.4808, -2.2426),
        ("São Paulo", "São Paulo State", .state, "Brazil", "South America", -23.5505, -46.6333),
        ("Manila", "Metro Manila", .province, "Philippines", "Asia", 14.5995, 120.9842),
    ]
    static let quarters = ["North", "South", "East", "West", "Riverside", "Hillside", "Old Town", "Market"]
    static let firstNames = ["Amina", "Wanjiru", "Kofi", "Chen", "Mei", "Priya", "Arjun", "Sofia", "Lucas", "Mateus", "Ana", "João",
                             "Olivia", "Liam", "Noah", "Emma", "Fatima", "Omar", "Yusuf", "Aisha", "Hiroshi", "Yuki", "Maria", "José",
                             "Grace", "Samuel", "Chidi", "Ngozi", "Isabel", "Diego", "Elena", "Mikhail", "Anya", "Tomás", "Léa", "Émile"]
    static let lastNames = ["Otieno", "Mwangi", "Mensah", "Wang", "Li", "Sharma", "Patel", "Silva", "Santos", "Oliveira", "Smith",
                            "Brown", "Wilson", "Khan", "Hassan", "Ali", "Tanaka", "Sato", "Reyes", "Cruz", "Garcia", "Okafor",
                            "Adeyemi", "Costa", "Novak", "Ivanova", "Dubois", "Moreau", "Nguyen", "Kowalski", "O'Brien", "Murphy"]
    static let streets = ["Station", "Church", "Mill", "Park", "Market", "School", "Garden", "Lake", "Forest", "Bridge", "Hill", "Victoria"]
    static let streetKinds = ["Road", "Street", "Avenue", "Lane", "Way"]
    static let publicVenues = ["Community Centre", "Library", "Primary School Hall", "Youth Club", "Parish Hall", "Sports Ground",
                               "Cultural Centre", "Health Clinic Hall"]
    static let activityWords = ["Morning", "Evening", "Weekend", "Neighbourhood", "Family", "Youth", "Women's", "Seniors'", "Open"]
    static let activityKinds = ["Study Circle", "Reading Group", "Football Club", "Choir", "Garden Project", "Art Class", "Clean-up",
                                "Cooking Club", "Homework Club", "Prayer Gathering", "Coding Club", "First Aid Course"]

    private static func makeAreas(_ random: inout SeededGenerator) -> ([Area], [(index: Int, city: Int)]) {
        var areas = [Area(id: UUID(using: &random), name: "World", type: .world, parent: nil)]
        var continents: [String: Int] = [:]
        var neighbourhoods: [(index: Int, city: Int)] = []
        for (cityIndex, city) in cities.enumerated() {
            let continent = continents[city.continent] ?? {
                areas.append(Area(id: UUID(using: &random), name: city.continent, type: .continent, parent: 0))
                continents[city.continent] = areas.count - 1
                return areas.count - 1
            }()
            areas.append(Area(id: UUID(using: &random), name: city.country, type: .country, parent: continent))
            areas.append(Area(id: UUID(using: &random), name: city.region, type: city.regionType, parent: areas.count - 1))
            areas.append(Area(id: UUID(using: &random), name: city.city, type: .city, parent: areas.count - 1))
            let cityArea = areas.count - 1
            for quarter in quarters {
                areas.append(Area(id: UUID(using: &random), name: "\(city.city) \(quarter)", type: .neighbourhood, parent: cityArea))
                neighbourhoods.append((areas.count - 1, cityIndex))
            }
        }
        return (areas, neighbourhoods)
    }

    private static func makeVenue(_ index: Int, neighbourhoods: [(index: Int, city: Int)], areas: [Area], _ random: inout SeededGenerator) -> Venue {
        let place = neighbourhoods[index % neighbourhoods.count]
        let city = cities[place.city]
        let isPublic = Int.random(in: 0..<10, using: &random) < 3
        let street = "\(Int.random(in: 1...240, using: &random)) \(streets.randomElement(using: &random)!) \(streetKinds.randomElement(using: &random)!)"
        let name = isPublic ? "\(areas[place.index].name) \(publicVenues.randomElement(using: &random)!)"
            : "\(lastNames.randomElement(using: &random)!) Residence"
        return Venue(id: UUID(using: &random), name: name, address: "\(street), \(city.city)", area: place.index,
                     latitude: city.lat + Double.random(in: -0.05...0.05, using: &random),
                     longitude: city.lon + Double.random(in: -0.05...0.05, using: &random),
                     type: isPublic ? .publicBuilding : .privateResidence)
    }

    private static func makeParticipant(_ index: Int, venueCount: Int, today: CalendarDate, _ random: inout SeededGenerator) -> Participant {
        let first = firstNames.randomElement(using: &random)!, last = lastNames.randomElement(using: &random)!
        let email = "\(SearchableName.ascii(first)).\(SearchableName.ascii(last)).\(index)@example.org"
        let phone = Int.random(in: 0..<10, using: &random) < 4 ? "+\(Int.random(in: 1...99, using: &random)) \(Int.random(in: 100...999, using: &random)) \(Int.random(in: 100_000...999_999, using: &random))" : nil
        let notes = Int.random(in: 0..<10, using: &random) == 0 ? "Prefers to be contacted in the evening." : nil
        var homes: [(venue: Int, from: CalendarDate)] = []
        if venueCount > 0, Int.random(in: 0..<100, using: &random) < 85 {
            if Int.random(in: 0..<5, using: &random) == 0 {
                homes.append((Int.random(in: 0..<venueCount, using: &random), today.adding(days: -Int.random(in: 800...1500, using: &random))))
            }
            homes.append((Int.random(in: 0..<venueCount, using: &random), today.adding(days: -Int.random(in: 10...700, using: &random))))
        }
        return Participant(id: UUID(using: &random), name: "\(first) \(last)", email: email, phone: phone, notes: notes, homes: homes)
    }

    private static func makeActivity(_ index: Int, venueCount: Int, participantCount: Int, typeCount: Int, roleCount: Int,
                                     today: CalendarDate, _ random: inout SeededGenerator) -> Activity {
        let start = today.adding(days: -Int.random(in: -60...(3 * 365), using: &random))
        let ongoing = Int.random(in: 0..<10, using: &random) < 3
        let end = ongoing ? nil : start.adding(days: 7 * Int.random(in: 1...26, using: &random))
        let cancelled = Int.random(in: 0..<10, using: &random) == 0
        let status: ActivityStatus = start > today ? .planned : cancelled ? .cancelled : (end.map { $0 < today } ?? false) ? .completed : .active
        let venues = venueCount == 0 ? [] : Array(Set((0..<(Int.random(in: 0..<5, using: &random) == 0 ? 2 : 1)).map { _ in
            Int.random(in: 0..<venueCount, using: &random) })).sorted()
        var pairs = Set<Int>()
        if participantCount > 0 {
            for _ in 0..<Int.random(in: 3...12, using: &random) {
                let role = pairs.isEmpty ? min(1, roleCount - 1) : (Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 0..<roleCount, using: &random) : 0)
                pairs.insert(Int.random(in: 0..<participantCount, using: &random) * roleCount + role)
            }
        }
        let name = "\(activityWords.randomElement(using: &random)!) \(activityKinds.randomElement(using: &random)!) \(index + 1)"
        return Activity(id: UUID(using: &random), name: name, typeIndex: Int.random(in: 0..<typeCount, using: &random), start: start,
                        end: end, status: status, venues: venues,
                        assignments: pairs.sorted().map { ($0 / roleCount, $0 % roleCount) })
    }
}

/// Email-safe forms of names.
enum SearchableName {
    static func ascii(_ name: String) -> String {
        name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).filter { $0.isLetter && $0.isASCII }
    }
}

extension UUID {
    /// A UUID (version 4 layout) drawn from a seeded generator.
    init(using random: inout SeededGenerator) {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        self = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
