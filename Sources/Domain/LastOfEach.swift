extension Array {
    /// The elements whose key does not come again later, in their order: the last word on each key (a record listed
    /// twice in the pages of one pull, or written twice in one push).
    public func lastOfEach<Key: Hashable>(by key: (Element) -> Key) -> [Element] {
        var last: [Key: Int] = [:]
        for (index, element) in enumerated() { last[key(element)] = index }
        guard last.count < count else { return self }
        return enumerated().filter { last[key($1)] == $0 }.map(\.element)
    }
}
