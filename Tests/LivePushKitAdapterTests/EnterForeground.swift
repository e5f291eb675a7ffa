#if os(Linux)
    // Apart from the tests: importing the UIKit mirror next to Testing would make Swift look for a
    // Testing/UIKit cross-import overlay.
    import Foundation
    import UIKit

    /// Posts what UIKit posts when the app returns to the foreground.
    @MainActor
    func enterForeground() {
        NotificationCenter.default.post(name: UIApplication.willEnterForegroundNotification, object: nil)
    }
#endif
