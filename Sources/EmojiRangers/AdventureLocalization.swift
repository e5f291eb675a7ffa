import LiveActivity

/// The alert texts the app localizes: the push carries the keys and the hero's name, the device looks the
/// keys up in the app's `Localizable.strings`.
package enum AdventureLocalization {
    /// The title of a knocked-down alert, with the hero's name as its argument.
    package static let knockedDownTitleKey = "%@ is knocked down!"
    /// The body of a knocked-down alert, with the hero's name as its argument.
    package static let knockedDownBodyKey = "Use a potion to heal %@!"
    /// The sound file (in the app bundle) played with a knocked-down alert.
    package static let heroDownSound = "HeroDown.mp4"

    /// The app's English `Localizable.strings`: key → format.
    package static let englishTable: [String: String] = [
        knockedDownTitleKey: "%@ is knocked down!",
        knockedDownBodyKey: "Use a potion to heal %@!",
    ]

    /// The localized alert for a hero knocked down, with its custom sound.
    package static func knockedDownAlert(_ hero: Hero) -> LiveActivityAlert {
        LiveActivityAlert(
            title: .localized(key: knockedDownTitleKey, arguments: [hero.name]),
            body: .localized(key: knockedDownBodyKey, arguments: [hero.name]),
            sound: .file(heroDownSound)
        )
    }
}
