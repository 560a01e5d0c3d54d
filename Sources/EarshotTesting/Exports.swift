// One `import EarshotTesting` gives a test file everything it names: `VoiceProfile`, `UserProfile`, `Traits`,
// `Priority`, `UtteranceKind` and the `Synthesizer` protocol come from EarshotCore, re-exported here so that test
// authors need not know how Earshot is split into modules.
@_exported import EarshotCore
