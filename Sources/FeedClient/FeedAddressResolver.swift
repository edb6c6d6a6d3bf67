import FeedFormat
import Foundation

/// Turns what the person typed after `--feed` into the URL of a timeline
/// (``FeedAddress``): `@user@server` asks the server for the account's id first
/// (`GET /api/v1/accounts/lookup`), before the first page.
public enum FeedAddressResolver {
    /// The timeline's URL for `address`; waits for the account lookup when there is one
    /// (at most `deadline`), on the calling thread (the start, before the grid exists).
    public static func timelineURL(for address: FeedAddress, fetcher: HTTPFetcher, deadline: Duration = .seconds(20)) throws(FetchError) -> String {
        switch address {
        case .timeline(let url): return url
        case .account:
            guard let lookup = address.accountLookupURL else { throw .badURL("") }
            let body = try BlockingFetch.run { () async throws(FetchError) -> [UInt8] in
                try await fetcher.fetch(lookup, headers: [("Accept", "application/json")], limit: 64 << 10, deadline: deadline, authorized: true).bytes
            }
            guard let id = FeedAddress.accountID(in: body), let url = address.accountStatusesURL(id: id) else {
                throw .unexpectedAnswer("an account with an id")
            }
            return url
        }
    }
}
