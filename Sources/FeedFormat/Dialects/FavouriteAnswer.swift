import Foundation

/// The answer to `POST /api/v1/statuses/:id/favourite` (or `/unfavourite`): Mastodon,
/// Pleroma, GoToSocial and Pixelfed answer with the status itself, its `favourited` the new
/// state. A like counts as sent only when the answer says so (issue 43): a `200` with a web
/// page, garbage or another state is a server that did not take it, whatever its status.
public enum FavouriteAnswer {
    /// The `favourited` of the status in `body`, or nil when the body is not a status with
    /// one (not JSON, not an object, no `id`, no boolean `favourited`).
    public static func favourited(in body: [UInt8]) -> Bool? {
        struct Answer: Decodable {
            let id: FlexibleString
            let favourited: Bool
        }
        return (try? JSONDecoder().decode(Answer.self, from: Data(body)))?.favourited
    }
}
