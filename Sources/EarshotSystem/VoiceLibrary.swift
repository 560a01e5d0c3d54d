import EarshotCore
import Foundation

enum VoiceLibrary { static func locateDirectory(explicit: String?) -> String? { explicit } }
