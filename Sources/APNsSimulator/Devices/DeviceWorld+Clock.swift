import APNsCore
import Foundation
import LiveActivity

extension DeviceWorld {
    /// After the clock was moved or its rate changed: every activity settles at the new time (so the
    /// lifecycle events of the hours skipped go out now) and the event stream gets `clockChanged`, so
    /// a dashboard reads the clock again.
    func clockChanged(_ reading: ClockReading) {
        settleAll(at: reading.now)
        publish(.clockChanged, data: ClockRoutes.json(reading), at: reading.now)
    }
}
