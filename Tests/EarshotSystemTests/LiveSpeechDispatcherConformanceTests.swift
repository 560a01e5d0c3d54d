import EarshotCore
import EarshotSystem
import Foundation
import Testing

/// The speech-dispatcher profile against a real, private speech-dispatcher (espeak-ng module, paced PulseAudio null
/// sink). Real time: run with the other live tests, alone (`--filter Live`).
@Suite(.serialized) struct LiveSpeechDispatcherConformanceTests {
    @Test func everyScenarioAgreesWithTheRealServerInOutcomeOrderAndStartTime() throws {
        let server = try SpeechDispatcherServer()
        defer { server.stop() }
        let scenarios = SSIPScenario.suite
        #expect(scenarios.count >= 20)
        var report = try SpeechDispatcherConformance.run(scenarios, server: server)
        print(report.table + report.summary)
        for result in report.results where !result.agrees {
            Issue.record("\(result.scenario): earshot and the server differ\n\(report.table)")
        }
        // Starts on arrival: the typical one within what the server itself varies by (a busy machine may delay one).
        func arrival() -> TimeSpan { ConformanceReport.medianMagnitude(report.startDifferences(onArrival: true)) }
        func handover() -> TimeSpan { ConformanceReport.medianMagnitude(report.startDifferences(onArrival: false)) }
        // The tolerances come from the server measured just before the scenarios. A shared host can slow down
        // between the two: once, most handovers came about 100 ms late (median 103 ms, against 13 ms in the run
        // before, on the same code). Then the whole suite, calibration included, runs once more and its timing
        // counts; its outcomes must agree too. Two runs in a row out of tolerance fail.
        if arrival() > report.arrivalTolerance || handover() > report.handoverTolerance {
            print("timing out of tolerance (\(report.summary)); measuring again")
            report = try SpeechDispatcherConformance.run(scenarios, server: server)
            print(report.table + report.summary)
            for result in report.results where !result.agrees {
                Issue.record("\(result.scenario): earshot and the server differ, measured again\n\(report.table)")
            }
        }
        #expect(arrival() <= report.arrivalTolerance, "\(report.summary)")
        #expect(handover() <= report.handoverTolerance, "\(report.summary)")
        // Cuts land on the word Earshot predicts, give or take one (index marks before every word).
        let words = report.cutWordDifferences.map(abs).sorted()
        #expect(!words.isEmpty)
        #expect(words.isEmpty || words[words.count / 2] <= 1, "\(report.summary)")
    }

    @Test func theSuiteCoversEveryPriorityPairStopCancelSeveralClientsAndProgressSeries() {
        let suite = SSIPScenario.suite
        var pairs: Set<[SSIPPriority]> = []
        var commands: Set<String> = []
        var clientsPerScenario: [Int] = []
        var progressSeries = 0
        for scenario in suite {
            var priorities: [SSIPPriority] = []
            for step in scenario.steps {
                switch step.command {
                case .speak(_, let priority, _): priorities.append(priority)
                case .stop: commands.insert("stop")
                case .cancel: commands.insert("cancel")
                }
            }
            if priorities.count >= 2 { pairs.insert(Array(priorities.prefix(2))) }
            if priorities.filter({ $0 == .progress }).count >= 3 { progressSeries += 1 }
            clientsPerScenario.append(Set(scenario.steps.map(\.command.client)).count)
        }
        #expect(pairs.count == 25)
        #expect(commands == ["stop", "cancel"])
        #expect(clientsPerScenario.contains { $0 >= 3 })
        #expect(progressSeries >= 2)
    }

    @Test func aCommandTheServerRejectsNamesTheCommandAndTheSocket() throws {
        let server = try SpeechDispatcherServer()
        defer { server.stop() }
        let client = try SSIPClient(socketPath: server.socketPath)
        defer { client.disconnect() }
        #expect(throws: Never.self) { try client.command("SET SELF PRIORITY message") }
        do {
            try client.command("SET SELF PRIORITY loudest")
            Issue.record("the server accepted an unknown priority")
        } catch let error as SSIPError {
            #expect(error.description.contains("SET SELF PRIORITY loudest"))
            #expect(error.description.contains(server.socketPath))
        }
    }

    @Test func stoppingTheServerEndsItsProcessesAndRemovesItsFolder() throws {
        let server = try SpeechDispatcherServer()
        let pid = try #require(server.serverPID)
        #expect(kill(pid, 0) == 0)
        #expect(FileManager.default.fileExists(atPath: server.socketPath))
        server.stop()
        #expect(kill(pid, 0) != 0)
        #expect(!FileManager.default.fileExists(atPath: server.directory))
    }
}

/// The SSIP client without a server.
@Suite struct SSIPClientTests {
    @Test func connectingWhereNothingListensNamesThePath() throws {
        let path = NSTemporaryDirectory() + "earshot-no-speechd-\(UUID().uuidString.prefix(8)).sock"
        do {
            _ = try SSIPClient(socketPath: path)
            Issue.record("connected to nothing")
        } catch let error as SSIPError {
            #expect(error.description.hasPrefix(path))
        }
    }
}
