/// Lookups into one version of a screen, built in one walk of the tree and kept until the tree changes, so a
/// swipe, a focus or a typed key costs a dictionary look-up instead of a walk of the whole tree.
///
/// Every answer is the one `Screen`'s own walks give (`navigationOrder`, `element(_:)`, `isExposed(_:)`,
/// `phraseContext(of:in:traitWords:)`): where an id occurs twice, the first in document order.
struct ScreenIndex {
    /// `Screen.navigationOrder`.
    private(set) var order: [AccessibilityElement]
    /// Each id's first place in `order`.
    private let positions: [String: Int]
    /// Each id's first element in document order, hidden or not.
    private var elements: [String: AccessibilityElement]
    /// Where each id's first element sits in the tree: child indexes from the top level down.
    private let paths: [String: [Int]]
    /// True when no id occurs twice in the tree (then an element change can be applied in place).
    private let idsAreUnique: Bool
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
        var paths: [String: [Int]] = [:]
        var unique = true
        var path: [Int] = []
        func walk(_ list: [AccessibilityElement], hidden: Bool) {
            for (offset, element) in list.enumerated() {
                let nowHidden = hidden || element.isHidden
                path.append(offset)
                if elements[element.id] == nil {
                    elements[element.id] = element
                    exposure[element.id] = !nowHidden
                    paths[element.id] = path
                } else {
                    unique = false
                }
                walk(element.children, hidden: nowHidden)
                path.removeLast()
            }
        }
        walk(screen.elements, hidden: false)
        self.elements = elements
        self.exposure = exposure
        self.paths = paths
        self.idsAreUnique = unique

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

    /// Where the element with `id` sits in the tree (child indexes from the top level down).
    func path(of id: String) -> [Int]? { paths[id] }

    /// Lets go of the children held by the index's copies of the element at `path` and of its ancestors, before
    /// the screen changes that element. Those copies share the arrays on the way to it with the screen: kept, they
    /// made the screen copy each of those arrays whole to change one element in them, and `refresh` then free the
    /// old copy, so one change to a row of a 5,000-row list cost two walks of the list. Until `refresh` puts the
    /// new elements back, the index answers wrongly for them: `refresh(changed:from:in:)` must follow, or the index
    /// be dropped.
    mutating func release(path: [Int], in screen: Screen) {
        for depth in 1..<path.count + 1 {
            guard let node = screen.element(at: path[..<depth]) else { return }
            elements[node.id]?.children = []
            if let position = positions[node.id] { order[position].children = [] }
        }
    }

    /// Takes in a change to the element with `id` (now in `screen`, `old` before), in place when the change
    /// leaves the tree's shape as it was: same visibility, container, focusability, traits and children count,
    /// and no id repeated. Then only the element and its ancestors (whose children hold it) are refreshed.
    /// Returns false when the index must be rebuilt instead.
    mutating func refresh(changed id: String, from old: AccessibilityElement, in screen: Screen) -> Bool {
        guard idsAreUnique, let path = paths[id], let new = screen.element(at: path),
            new.isHidden == old.isHidden, new.container == old.container, new.isFocusable == old.isFocusable,
            new.traits == old.traits, new.containerType == old.containerType,
            new.children.count == old.children.count
        else { return false }
        for depth in 1...path.count {
            guard let node = screen.element(at: path[..<depth]) else { return false }
            elements[node.id] = node
            if let position = positions[node.id] { order[position] = node }
        }
        return true
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
