/// Where a network load is: checks' `while LOAD loads` window and `focus stays … when LOAD loads` read it
/// from the timeline as a typed fact (`TimelineEventKind.load`).
public enum LoadPhase: String, Hashable, Sendable, CaseIterable {
    /// The request went out.
    case started
    /// The response arrived; the load's block runs now.
    case finished
}
