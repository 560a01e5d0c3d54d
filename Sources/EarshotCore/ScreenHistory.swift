/// The screen at one point of a run: after the change recorded at (`at`, `sequence`).
public struct ScreenSnapshot: Sendable {
    /// When the change happened.
    public var at: Instant
    /// The change's place in the run's one order.
    public var sequence: Int
    /// The whole screen after the change.
    public var screen: Screen

    /// Creates a snapshot.
    public init(at: Instant, sequence: Int, screen: Screen) {
        self.at = at
        self.sequence = sequence
        self.screen = screen
    }
}

/// The screen over a run, stored as changes rather than full copies, so that memory grows with what changed and
/// not with the screen's size times the number of changes.
///
/// A shown screen is kept whole; a change to one element keeps the element's new fields and, for its value, only
/// the bytes that differ from the old value. Whole screens are also kept now and then (when the changes since the
/// last whole screen weigh as much as the screen), so any snapshot is rebuilt from the nearest whole screen before
/// it with a bounded amount of replay, and the whole screens together weigh no more than the changes.
/// Changes must be recorded in the run's order: (instant, sequence) never goes back.
public struct ScreenHistory: Sendable {
    /// One recorded change.
    enum Change: Sendable {
        /// A whole screen (a shown screen, or the first).
        case whole(Screen)
        /// One element replaced at `path`.
        case element(ElementChange)
    }

    /// An element's new state; its value, when it differs from the old one, is an edit of the old value.
    struct ElementChange: Sendable {
        var path: [Int]
        /// The new element; its value is empty when `valueEdit` carries it.
        var element: AccessibilityElement
        var valueEdit: StringEdit?
    }

    /// A whole screen kept so that snapshots after it replay from it.
    struct Checkpoint: Sendable {
        var index: Int
        var screen: Screen
    }

    private(set) var instants: [Instant] = []
    private(set) var sequences: [Int] = []
    private(set) var changes: [Change] = []
    private(set) var checkpoints: [Checkpoint] = []
    /// The weight (see `weight(of:)`) of the screen at the last checkpoint, and of the changes since.
    private var checkpointWeight = 0
    private var weightSinceCheckpoint = 0

    /// What the history keeps, in weight units (an element's fixed cost plus its texts' bytes): whole screens and
    /// changes. Full copies of the screen after every change would weigh the sum of all those screens.
    public private(set) var storedWeight = 0

    /// Creates an empty history.
    public init() {}

    /// The number of recorded changes (snapshots).
    public var count: Int { changes.count }

    /// Records a whole screen (the first one, or one shown in place of another) at (`at`, `sequence`).
    public mutating func record(_ screen: Screen, at: Instant, sequence: Int) {
        append(.whole(screen), at: at, sequence: sequence)
        checkpoint(screen)
    }

    /// Records that the element at `path` changed from `old` to `new`; `screen` is the whole screen after the
    /// change (kept only when it is time for a checkpoint). Without any earlier whole screen, `screen` is kept.
    public mutating func recordChange(
        at: Instant, sequence: Int, path: [Int], from old: AccessibilityElement, to new: AccessibilityElement,
        in screen: Screen
    ) {
        guard !checkpoints.isEmpty else { return record(screen, at: at, sequence: sequence) }
        var element = new
        var edit: StringEdit?
        if old.value != new.value, let valueEdit = StringEdit(from: old.value, to: new.value) {
            edit = valueEdit
            element.value = ""
        }
        append(.element(ElementChange(path: path, element: element, valueEdit: edit)), at: at, sequence: sequence)
        let weight = Self.ownWeight(of: element) + path.count + (edit?.inserted.utf8.count ?? 0)
        weightSinceCheckpoint += weight
        storedWeight += weight
        if weightSinceCheckpoint >= checkpointWeight { checkpoint(screen) }
    }

    /// The screen as it was at `instant`, after everything that happened then (or, with `sequence`, only after
    /// what happened before that point of the order); nil before the first snapshot.
    public func screen(at instant: Instant, before sequence: Int = .max) -> Screen? {
        let index = lastIndex(atOrBefore: instant, before: sequence)
        return index >= 0 ? screen(atIndex: index) : nil
    }

    /// The snapshot recorded at position `index` (0 ..< count), rebuilt from the nearest whole screen before it.
    public func snapshot(_ index: Int) -> ScreenSnapshot {
        ScreenSnapshot(at: instants[index], sequence: sequences[index], screen: screen(atIndex: index))
    }

    /// The snapshots recorded within `range`, in order, rebuilt one from the next as they are visited.
    public func snapshots(in range: ClosedRange<Instant>) -> Snapshots {
        let first = instants.partitionPoint { $0 >= range.lowerBound }
        let end = instants.partitionPoint { $0 > range.upperBound }
        return Snapshots(history: self, indices: first..<max(first, end))
    }

    /// Every snapshot, in order.
    public var allSnapshots: Snapshots { Snapshots(history: self, indices: 0..<count) }

    /// Snapshots visited in order; each step replays one change onto the previous screen.
    public struct Snapshots: Sequence, Sendable {
        let history: ScreenHistory
        let indices: Range<Int>

        /// An iterator over the snapshots.
        public func makeIterator() -> Iterator {
            Iterator(history: history, position: indices.lowerBound, end: indices.upperBound)
        }

        /// Walks the snapshots, keeping one running screen.
        public struct Iterator: IteratorProtocol {
            let history: ScreenHistory
            var position: Int
            let end: Int
            var current: Screen?

            /// The next snapshot, or nil after the last.
            public mutating func next() -> ScreenSnapshot? {
                guard position < end else { return nil }
                let index = position
                position += 1
                if var screen = current {
                    current = nil  // the running screen is the only copy while the change is applied
                    history.apply(history.changes[index], to: &screen)
                    current = screen
                } else {
                    current = history.screen(atIndex: index)
                }
                guard let screen = current else { return nil }
                return ScreenSnapshot(at: history.instants[index], sequence: history.sequences[index], screen: screen)
            }
        }
    }

    // MARK: Internals

    private mutating func append(_ change: Change, at: Instant, sequence: Int) {
        instants.append(at)
        sequences.append(sequence)
        changes.append(change)
    }

    private mutating func checkpoint(_ screen: Screen) {
        checkpoints.append(Checkpoint(index: changes.count - 1, screen: screen))
        checkpointWeight = Self.weight(of: screen.elements)
        weightSinceCheckpoint = 0
        storedWeight += checkpointWeight
    }

    /// The index of the last snapshot before (`instant`, `sequence`) in the run's order, or -1.
    func lastIndex(atOrBefore instant: Instant, before sequence: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if (instants[mid], sequences[mid]) < (instant, sequence) { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    /// The screen after change `index`: the last checkpoint at or before it, with the changes since replayed.
    func screen(atIndex index: Int) -> Screen {
        let position = checkpoints.partitionPoint { $0.index > index } - 1
        let checkpoint = checkpoints[max(0, position)]
        var screen = checkpoint.screen
        var next = checkpoint.index + 1
        while next <= index {
            apply(changes[next], to: &screen)
            next += 1
        }
        return screen
    }

    func apply(_ change: Change, to screen: inout Screen) {
        switch change {
        case .whole(let whole):
            screen = whole
        case .element(let change):
            screen.update(at: change.path) { element in
                if let edit = change.valueEdit {
                    var value = element.value
                    element.value = ""  // `value` is then the only copy, edited in place
                    edit.apply(to: &value)
                    element = change.element
                    element.value = value
                } else {
                    element = change.element
                }
            }
        }
    }

    /// An element's weight without its children: a fixed cost plus its texts' bytes.
    static func ownWeight(of element: AccessibilityElement) -> Int {
        64 + element.label.utf8.count + element.value.utf8.count + element.hint.utf8.count + element.id.utf8.count
            + element.prompt.utf8.count
    }

    /// The weight of a tree: its elements' own weights.
    public static func weight(of elements: [AccessibilityElement]) -> Int {
        elements.reduce(0) { $0 + ownWeight(of: $1) + weight(of: $1.children) }
    }
}
