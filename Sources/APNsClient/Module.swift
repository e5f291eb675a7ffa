import APNsCore
