import EarshotCore
import EarshotScript

extension RenderOutputs {
    /// The pause between the before run and "After.".
    public static let gap = TimeSpan.milliseconds(1_500)
    /// The pause between two pairs (or two scripts, for readers).
    public static let pairGap = TimeSpan.milliseconds(2_500)

    /// A before/after comparison: "Before.", the before run, a pause, "After.", the after run. Several pairs play
    /// in turn, each introduced by its name ("Search. Before."), 2.5 s apart; a pair's name (`search`, or empty
    /// for before/after) prefixes its segments' names.
    public static func comparison(_ pairs: [(name: String, before: ScenarioRun, after: ScenarioRun)]) -> [RenderItem] {
        var items: [RenderItem] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { items.append(.pause(pairGap)) }
            let introduce = pairs.count > 1 && !pair.name.isEmpty
            let spokenName = pair.name.replacingOccurrences(of: "-", with: " ").capitalized
            let prefix = pair.name.isEmpty ? "" : pair.name + " "
            items.append(.label(introduce ? "\(spokenName). Before." : "Before."))
            items.append(.run(name: prefix + "before", pair.before))
            items.append(.pause(gap))
            items.append(.label("After."))
            items.append(.run(name: prefix + "after", pair.after))
        }
        return items
    }

    /// Scripts under several screen readers: each script's runs in turn, a spoken label ("TalkBack.") before
    /// each; with several scripts, the first label names the script's title and segments name the script.
    public static func readers(
        _ scripts: [(name: String, title: String, runs: [(reader: ScreenReader, run: ScenarioRun)])]
    ) -> [RenderItem] {
        var items: [RenderItem] = []
        for (scriptIndex, script) in scripts.enumerated() {
            if scriptIndex > 0 { items.append(.pause(pairGap)) }
            for (index, entry) in script.runs.enumerated() {
                if index > 0 { items.append(.pause(gap)) }
                let spoken = entry.reader.spokenName + "."
                items.append(.label(scripts.count > 1 && index == 0 ? "\(script.title). \(spoken)" : spoken))
                let name = entry.reader.displayName
                items.append(.run(name: scripts.count > 1 ? "\(script.name) \(name)" : name, entry.run))
            }
        }
        return items
    }
}

extension ScreenReader {
    /// The name as a spoken label says it (espeak-ng reads "NVDA" letter by letter on its own).
    public var spokenName: String {
        switch self {
        case .speechDispatcher: return "Speech dispatcher"
        default: return displayName
        }
    }
}
