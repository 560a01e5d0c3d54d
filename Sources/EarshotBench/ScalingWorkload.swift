/// A family of generated scenario scripts for `earshot bench --scaling`: one script per size, the same shape at
/// every size, so how time and memory grow with the size shows how the engine scales.
public struct ScalingWorkload: Sendable {
    /// The workload's name in the table and in `--workload`.
    public var name: String
    /// What the size counts ("s", "keys", "elements", …).
    public var unit: String
    /// The sizes of a full run, smallest first.
    public var sizes: [Int]
    /// The sizes of a `--quick` run: small enough for a test to finish in seconds.
    public var quickSizes: [Int]
    /// The script for a size.
    public var script: @Sendable (Int) -> String

    /// Creates a workload.
    public init(
        name: String, unit: String, sizes: [Int], quickSizes: [Int], script: @escaping @Sendable (Int) -> String
    ) {
        self.name = name
        self.unit = unit
        self.sizes = sizes
        self.quickSizes = quickSizes
        self.script = script
    }

    /// Every workload of the scaling benchmark, in the order the table lists them.
    public static let all: [ScalingWorkload] = [
        ScalingWorkload(
            name: "stopwatch", unit: "s", sizes: [60, 240, 960, 3600, 14_400], quickSizes: [10, 20, 40],
            script: stopwatch(seconds:)),
        ScalingWorkload(
            name: "countdown", unit: "s", sizes: [60, 240, 960, 3600, 14_400], quickSizes: [10, 20, 40],
            script: countdown(seconds:)),
        ScalingWorkload(
            name: "typing", unit: "keys", sizes: [400, 1600, 6400, 24_000, 96_000], quickSizes: [20, 40, 80],
            script: typing(keys:)),
        ScalingWorkload(
            name: "swiping", unit: "elements", sizes: [100, 300, 1000, 3000, 10_000], quickSizes: [20, 40, 80],
            script: swiping(elements:)),
        ScalingWorkload(
            name: "churn", unit: "elements", sizes: [100, 300, 1000, 3000, 5000], quickSizes: [20, 40, 80],
            script: churn(elements:)),
        ScalingWorkload(
            name: "rapid", unit: "events", sizes: [100, 400, 1600, 6400, 25_600], quickSizes: [20, 40, 80],
            script: rapid(events:)),
    ]

    /// A focused `updatesFrequently` stopwatch, polled every second, for `seconds`.
    public static func stopwatch(seconds: Int) -> String {
        """
        title    "A stopwatch focused for \(seconds) seconds"
        pattern  updates-frequently
        variant  after
        profile  voiceover
        poll     1s

        screen Stopwatch
          text   stopwatch "00:00:00"  trait updatesFrequently

        at 0s       every 1s for \(seconds)s set stopwatch label "{clock}"
        at 0.5s     focus stopwatch
        wait 1s

        """
    }

    /// A countdown announced every second (the announcement-spam "before"), for `seconds`.
    static func countdown(seconds: Int) -> String {
        """
        title    "A countdown announced every second for \(seconds) seconds"
        pattern  announcement-spam
        variant  before
        profile  voiceover

        screen Order
          text   timer "Arrives in"

        at 0s       focus timer
        at 0s       every 1s for \(seconds)s announce "{countdown \(seconds / 60 + 1)m}"
        wait 1s

        """
    }

    /// `keys` characters typed into a search field, 150 ms apart, words of three letters and a space; one `type`
    /// line per 3,000 characters (a script string holds at most 10,000), each starting where the last one ends.
    static func typing(keys: Int) -> String {
        let words = ["tea ", "cup ", "pot ", "jar "]
        var text = ""
        var index = 0
        while text.count < keys {
            text += words[index % words.count]
            index += 1
        }
        let line = 3000
        let typed = Array(text.prefix(keys))
        let lines = stride(from: 0, to: typed.count, by: line).map { start in
            let seconds = 1 + Double(start) * 0.15
            let part = String(typed[start..<min(start + line, typed.count)])
            return "at \(String(format: "%.2f", seconds))s  type \"\(part)\" every 150ms"
        }
        return """
            title    "Typing \(keys) characters into one field"
            pattern  announcement-spam
            variant  after
            profile  voiceover

            screen Search
              searchField query "Search"

            at 0s       focus query
            \(lines.joined(separator: "\n"))
            wait 1s

            """
    }

    /// A list of `elements` buttons swiped through from the first to the last, 300 ms apart.
    static func swiping(elements: Int) -> String {
        """
        title    "Swiping through \(elements) elements"
        pattern  skeleton-noise
        variant  after
        profile  voiceover

        screen List
          repeat \(elements):
            button row "Item"

        at 0s       focus row-1
        at 1s       swipe next \(max(elements - 1, 1)) times every 300ms
        wait 1s

        """
    }

    /// A screen of `elements` rows where one row's label changes `elements` times, 50 ms apart, focus elsewhere:
    /// as many tree changes as elements.
    static func churn(elements: Int) -> String {
        """
        title    "\(elements) changes to a screen of \(elements) elements"
        pattern  skeleton-noise
        variant  after
        profile  voiceover

        screen Feed
          header title "Feed"
          group  rows "" contain
            repeat \(elements):
              text row "Row"

        at 0s       focus title
        at 1s       every 50ms times \(elements) set row-1 label "Row {count}"
        wait 1s

        """
    }

    /// `events` announcements 50 ms apart: each cuts the one before.
    public static func rapid(events: Int) -> String {
        """
        title    "\(events) announcements 50 ms apart"
        pattern  announcement-spam
        variant  before
        profile  voiceover

        screen Status
          text   status "Status"

        at 0s       focus status
        at 1s       every 50ms times \(events) announce "Update {count}"
        wait 2s

        """
    }
}
