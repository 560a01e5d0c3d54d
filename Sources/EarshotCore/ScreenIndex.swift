/// Lookups into one version of a screen, built in one walk of the tree and kept until the tree changes, so a
/// swipe, a focus or a typed key costs a dictionary look-up instead of a walk of the whole tree.
///
/// Every answer is the one `Screen`'s own walks give (`navigationOrder`, `element(_:)`, `isExposed(_:)`,
/// `phraseContext(of:in:traitWords:)`): where an id occurs twice, the first in document order.
struct ScreenIndex {
    /// `Screen.navigationOrder`.
    let order: [AccessibilityElement]
    /// Each id's first place in `order`.
    private let positions: [String: Int]
    /// Each id's first element in document order, hidden or not.
    private let elements: [String: AccessibilityElement]
    /// Whether each id's first element in document order is exposed (neither it nor an ancestor hidden).
    private let exposure: [String: Bool]
    /// The list or landmark each reachable element starts and ends (the innermost typed container holding it).
    private let edges: [String: (starts: ContainerType?, ends: ContainerType?)]
    /// Each tab's 1-based position among the tabs of `order`.
    private let tabPositions: [String: Int]
    private let tabCount: Int

    /// Indexes `screen`.
    init(_ screen: Screen) {
        let order = screen.navigationOrder
        self.order = order
        var positions: [String: Int] = [:]
        positions.reserveCapacity(order.count)
        var tabPositions: [String: Int] = [:]
        var tabCount = 0
        for (index, element) in order.enumerated() {
            if positions[element.id] == nil { positions[element.id] = index }
            if element.traits.contains(.tab) {
                tabCount += 1
                if tabPositions[element.id] == nil { tabPositions[element.id] = tabCount }
            }
        }
        self.positions = positions
        self.tabPositions = tabPositions
        self.tabCount = tabCount

        var elements: [String: AccessibilityElement] = [:]
        var exposure: [String: Bool] = [:]
        func walk(_ list: [AccessibilityElement], hidden: Bool) {
            for element in list {
                let nowHidden = hidden || element.isHidden
                if elements[element.id] == nil {
                    elements[element.id] = element
                    exposure[element.id] = !nowHidden
                }
                walk(element.children, hidden: nowHidden)
            }
        }
        walk(screen.elements, hidden: false)
        self.elements = elements
        self.exposure = exposure

        // As `phraseContext` searches: typed containers in document order, hidden subtrees skipped, later (deeper)
        // containers overriding earlier ones for the elements they hold.
        var edges: [String: (starts: ContainerType?, ends: ContainerType?)] = [:]
        func search(_ list: [AccessibilityElement]) {
            for item in list where !item.isHidden {
                if let type = item.containerType, item.container != .combine {
                    let inside = item.allDescendantIDs.filter { positions[$0] != nil }
                    for id in Set(inside) {
                        edges[id] = (
                            starts: inside.first == id ? type : nil,
                            ends: inside.last == id && inside.count > 1 ? type : nil
                        )
                    }
                }
                search(item.children)
            }
        }
        search(screen.elements)
        self.edges = edges
    }

    /// The first place of `id` in the navigation order.
    func position(of id: String) -> Int? { positions[id] }

    /// The element with `id`, hidden or not.
    func element(_ id: String) -> AccessibilityElement? { elements[id] }

    /// True when the element with `id` exists and neither it nor an ancestor is hidden.
    func isExposed(_ id: String) -> Bool { exposure[id] ?? false }

    /// `Screen.phraseContext(of:in:traitWords:)` with the navigation order.
    func phraseContext(of id: String, traitWords: Bool) -> PhraseContext {
        var context = PhraseContext(traitWords: traitWords)
        if let element = elements[id], element.traits.contains(.tab) {
            context.position = tabPositions[id].map { (index: $0, count: tabCount) }
        }
        if let edge = edges[id] {
            context.starts = edge.starts
            context.ends = edge.ends
        }
        return context
    }
}
