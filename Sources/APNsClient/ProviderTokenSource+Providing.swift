import APNsAuth

extension ProviderTokenSource: ProviderTokenProviding {
    public func currentJWT() -> String { current().jwt }
    public func renewJWT(rejected: String) -> String { renew(rejected: rejected).jwt }
}
