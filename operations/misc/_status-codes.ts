/**
 * The HTTP status code table behind `misc/status-code`: every code in the IANA "HTTP Status
 * Code Registry" (https://www.iana.org/assignments/http-status-codes), plus a short list of
 * widely seen unofficial codes with the product that uses them.
 *
 * Reason phrases follow RFC 9110 where RFC 9110 defines the code (so 413 is "Content Too
 * Large", not the older "Payload Too Large"), and the registry otherwise. References are the
 * registry's own, written out ("RFC 9110, Section 15.5.5"). Descriptions are the project's own
 * words: one or two sentences, each ending with a period.
 */

/** The five classes of RFC 9110, Section 15, named by the first digit of the code. */
export const CATEGORIES = [
  "Informational",
  "Success",
  "Redirection",
  "Client Error",
  "Server Error",
] as const;

export type Category = (typeof CATEGORIES)[number];

/**
 * Where a code stands in the IANA registry: `permanent` for an ordinary registration,
 * `temporary` for a provisional one (104), `unused` for a reserved code (306, 418),
 * `obsolete` for one the registry marks OBSOLETED (510).
 */
export type RegistryStatus = "permanent" | "temporary" | "unused" | "obsolete";

/** A code in the IANA registry. */
export interface RegisteredStatusCode {
  code: number;
  reason: string;
  /** The registry's reference, written out: `RFC 9110, Section 15.5.5`. */
  reference: string;
  description: string;
  /** Defaults to `permanent`. */
  registryStatus?: Exclude<RegistryStatus, "permanent">;
  /** Other names the code goes by: former standard phrases, well-known vendor uses. */
  alsoKnownAs?: readonly string[];
}

/** A code outside the registry that a well-known product or convention uses. */
export interface UnofficialStatusCode {
  code: number;
  reason: string;
  /** Who uses the code. */
  source: string;
  description: string;
  alsoKnownAs?: readonly string[];
}

/** Every entry of the IANA HTTP Status Code Registry, in code order. */
export const REGISTERED_STATUS_CODES: readonly RegisteredStatusCode[] = [
  {
    code: 100,
    reason: "Continue",
    reference: "RFC 9110, Section 15.2.1",
    description:
      "The server has received the request header and the client may go on sending the body. It is the usual answer to a request carrying Expect: 100-continue.",
  },
  {
    code: 101,
    reason: "Switching Protocols",
    reference: "RFC 9110, Section 15.2.2",
    description:
      "The server agrees to change the connection to the protocol the client asked for in its Upgrade header, such as WebSocket. The new protocol takes over right after this response.",
  },
  {
    code: 102,
    reason: "Processing",
    reference: "RFC 2518",
    description:
      "An interim WebDAV response telling the client that a long request is still being worked on, so it should not time out. RFC 4918 later dropped it from WebDAV, and it is seldom sent today.",
  },
  {
    code: 103,
    reason: "Early Hints",
    reference: "RFC 8297",
    description:
      "An interim response carrying Link headers ahead of time, so the browser can start preloading or preconnecting while the server is still preparing the final response.",
  },
  {
    code: 104,
    reason: "Upload Resumption Supported",
    reference: "draft-ietf-httpbis-resumable-upload-05",
    registryStatus: "temporary",
    description:
      "An interim response telling the client that the server can resume this upload if it is interrupted, and where the upload resource lives. The registration is temporary while the IETF resumable-upload draft is finished.",
  },
  {
    code: 200,
    reason: "OK",
    reference: "RFC 9110, Section 15.3.1",
    description:
      "The request succeeded. What the body holds depends on the method: the resource for a GET, the outcome of the action for a POST.",
  },
  {
    code: 201,
    reason: "Created",
    reference: "RFC 9110, Section 15.3.2",
    description:
      "The request succeeded and created one or more new resources. The Location header usually points at the main new resource.",
  },
  {
    code: 202,
    reason: "Accepted",
    reference: "RFC 9110, Section 15.3.3",
    description:
      "The request has been taken on for processing, but the work is not finished and may still fail. It suits queued or asynchronous jobs.",
  },
  {
    code: 203,
    reason: "Non-Authoritative Information",
    reference: "RFC 9110, Section 15.3.4",
    description:
      "The request succeeded, but a transforming proxy changed the content it received from the origin server.",
  },
  {
    code: 204,
    reason: "No Content",
    reference: "RFC 9110, Section 15.3.5",
    description:
      "The request succeeded and there is deliberately no body to send. It is typical after a save or a delete where the client stays on the same view.",
  },
  {
    code: 205,
    reason: "Reset Content",
    reference: "RFC 9110, Section 15.3.6",
    description:
      "The request succeeded and the client should reset the view that sent it, such as clearing a form for the next entry.",
  },
  {
    code: 206,
    reason: "Partial Content",
    reference: "RFC 9110, Section 15.3.7",
    description:
      "The server is sending only the part or parts of the resource that the request's Range header asked for.",
  },
  {
    code: 207,
    reason: "Multi-Status",
    reference: "RFC 4918",
    description:
      "A WebDAV response whose XML body carries a separate status for each of several resources or operations.",
  },
  {
    code: 208,
    reason: "Already Reported",
    reference: "RFC 5842",
    description:
      "Used inside a WebDAV multistatus body to say that a collection's members were already listed earlier in the same response, so bindings do not make them repeat.",
  },
  {
    code: 226,
    reason: "IM Used",
    reference: "RFC 3229",
    description:
      "The server answered a GET with the result of one or more instance manipulations, such as a delta against a version the client already holds.",
  },
  {
    code: 300,
    reason: "Multiple Choices",
    reference: "RFC 9110, Section 15.4.1",
    description:
      "The resource has several representations, such as different languages or formats, and the client or user may pick one. The server may name a preferred one in the Location header.",
  },
  {
    code: 301,
    reason: "Moved Permanently",
    reference: "RFC 9110, Section 15.4.2",
    description:
      "The resource has a new permanent URI, given in the Location header, which clients should use from now on. For historical reasons a client may turn a POST into a GET when following it.",
  },
  {
    code: 302,
    reason: "Found",
    reference: "RFC 9110, Section 15.4.3",
    alsoKnownAs: ["Moved Temporarily (HTTP/1.0, RFC 1945)"],
    description:
      "The resource is for now at the URI in the Location header, but clients should keep using the original URI. For historical reasons a client may turn a POST into a GET when following it.",
  },
  {
    code: 303,
    reason: "See Other",
    reference: "RFC 9110, Section 15.4.4",
    description:
      "The server sends the client to another resource, named in the Location header, to be fetched with GET. It is the usual way to show a result page after a POST.",
  },
  {
    code: 304,
    reason: "Not Modified",
    reference: "RFC 9110, Section 15.4.5",
    description:
      "A conditional GET or HEAD found that the client's cached copy is still current, so no body is sent and the cached copy can be reused.",
  },
  {
    code: 305,
    reason: "Use Proxy",
    reference: "RFC 9110, Section 15.4.6",
    description:
      "Once asked the client to repeat the request through the proxy named in the Location header. It is deprecated for security reasons, and clients do not act on it.",
  },
  {
    code: 306,
    reason: "(Unused)",
    reference: "RFC 9110, Section 15.4.7",
    registryStatus: "unused",
    alsoKnownAs: ["Switch Proxy (early HTTP/1.1 drafts)"],
    description:
      "An earlier draft of HTTP/1.1 gave this code a meaning that was later dropped. The code is kept reserved and is not sent.",
  },
  {
    code: 307,
    reason: "Temporary Redirect",
    reference: "RFC 9110, Section 15.4.8",
    description:
      "The resource is for now at the URI in the Location header, and the client must repeat the request there with the same method and body.",
  },
  {
    code: 308,
    reason: "Permanent Redirect",
    reference: "RFC 9110, Section 15.4.9",
    description:
      "The resource has moved for good to the URI in the Location header, and the client must repeat the request there with the same method and body.",
  },
  {
    code: 400,
    reason: "Bad Request",
    reference: "RFC 9110, Section 15.5.1",
    description:
      "The server will not process the request because of something it sees as the client's fault, such as malformed syntax or invalid message framing.",
  },
  {
    code: 401,
    reason: "Unauthorized",
    reference: "RFC 9110, Section 15.5.2",
    description:
      "The request lacks valid credentials for the resource. The response carries a WWW-Authenticate header saying how to authenticate.",
  },
  {
    code: 402,
    reason: "Payment Required",
    reference: "RFC 9110, Section 15.5.3",
    description:
      "Reserved for future use and without a standard meaning. Some APIs use it for billing or quota problems.",
  },
  {
    code: 403,
    reason: "Forbidden",
    reference: "RFC 9110, Section 15.5.4",
    description:
      "The server understood the request but refuses to carry it out, for instance because the user lacks permission. Repeating it with the same credentials will not help.",
  },
  {
    code: 404,
    reason: "Not Found",
    reference: "RFC 9110, Section 15.5.5",
    description:
      "The server has no current representation of the target resource, or will not admit that one exists. It says nothing about whether the absence is temporary or permanent.",
  },
  {
    code: 405,
    reason: "Method Not Allowed",
    reference: "RFC 9110, Section 15.5.6",
    description:
      "The resource exists but does not support the request method. The response lists the methods it does support in an Allow header.",
  },
  {
    code: 406,
    reason: "Not Acceptable",
    reference: "RFC 9110, Section 15.5.7",
    description:
      "The server has no representation that satisfies the client's negotiation headers, such as Accept or Accept-Language.",
  },
  {
    code: 407,
    reason: "Proxy Authentication Required",
    reference: "RFC 9110, Section 15.5.8",
    description:
      "Like 401, but the client must first authenticate with a proxy. The proxy says how in a Proxy-Authenticate header.",
  },
  {
    code: 408,
    reason: "Request Timeout",
    reference: "RFC 9110, Section 15.5.9",
    description:
      "The server gave up waiting for the client to finish sending the request and is closing the connection. The client may send the request again on a new connection.",
  },
  {
    code: 409,
    reason: "Conflict",
    reference: "RFC 9110, Section 15.5.10",
    description:
      "The request clashes with the current state of the resource, such as an edit made against an outdated version. The client may be able to resolve the clash and try again.",
  },
  {
    code: 410,
    reason: "Gone",
    reference: "RFC 9110, Section 15.5.11",
    description:
      "The resource used to be here, was removed on purpose, and is expected to stay away. Links to it should be dropped.",
  },
  {
    code: 411,
    reason: "Length Required",
    reference: "RFC 9110, Section 15.5.12",
    description:
      "The server refuses a request that does not state its body size in Content-Length.",
  },
  {
    code: 412,
    reason: "Precondition Failed",
    reference: "RFC 9110, Section 15.5.13",
    description:
      "A condition in the request header, such as If-Match or If-Unmodified-Since, turned out false on the server, so the method was not applied.",
  },
  {
    code: 413,
    reason: "Content Too Large",
    reference: "RFC 9110, Section 15.5.14",
    alsoKnownAs: ["Payload Too Large (RFC 7231)", "Request Entity Too Large (RFC 2616)"],
    description:
      "The request body is bigger than the server is willing or able to handle. If the limit is temporary, a Retry-After header may say when to try again.",
  },
  {
    code: 414,
    reason: "URI Too Long",
    reference: "RFC 9110, Section 15.5.15",
    alsoKnownAs: ["Request-URI Too Long (RFC 2616)"],
    description:
      "The target URI is longer than the server is willing to read, often because data that belongs in a POST body was packed into the query string.",
  },
  {
    code: 415,
    reason: "Unsupported Media Type",
    reference: "RFC 9110, Section 15.5.16",
    description:
      "The server refuses the body because of its format or coding, such as a Content-Type or Content-Encoding it does not accept for this resource.",
  },
  {
    code: 416,
    reason: "Range Not Satisfiable",
    reference: "RFC 9110, Section 15.5.17",
    alsoKnownAs: ["Requested Range Not Satisfiable (RFC 2616)"],
    description:
      "None of the ranges in the request's Range header fit the current representation, such as a byte range that starts past the end of the file.",
  },
  {
    code: 417,
    reason: "Expectation Failed",
    reference: "RFC 9110, Section 15.5.18",
    description: "The server cannot meet the expectation stated in the request's Expect header.",
  },
  {
    code: 418,
    reason: "(Unused)",
    reference: "RFC 9110, Section 15.5.19",
    registryStatus: "unused",
    alsoKnownAs: ["I'm a teapot (RFC 2324)"],
    description:
      "Known as \"I'm a teapot\" from RFC 2324, an April Fools' protocol for coffee pots that is not part of HTTP. The joke is deployed so widely that RFC 9110 reserves the code instead of ever giving it a real meaning.",
  },
  {
    code: 421,
    reason: "Misdirected Request",
    reference: "RFC 9110, Section 15.5.20",
    description:
      "The request reached a server that cannot answer with authority for the target URI, often because a reused connection belongs to another host. The client may retry over a different connection.",
  },
  {
    code: 422,
    reason: "Unprocessable Content",
    reference: "RFC 9110, Section 15.5.21",
    alsoKnownAs: ["Unprocessable Entity (RFC 4918)"],
    description:
      "The server understands the content type and the syntax is fine, but it cannot act on the instructions, typically because the data fails validation.",
  },
  {
    code: 423,
    reason: "Locked",
    reference: "RFC 4918",
    description: "The WebDAV resource is locked, so the method cannot be applied to it.",
  },
  {
    code: 424,
    reason: "Failed Dependency",
    reference: "RFC 4918",
    description:
      "The WebDAV method could not be performed on this resource because another action it depended on failed.",
  },
  {
    code: 425,
    reason: "Too Early",
    reference: "RFC 8470",
    description:
      "The server will not process a request that came in TLS early data, since an attacker could replay it. The client can send it again once the handshake is complete.",
  },
  {
    code: 426,
    reason: "Upgrade Required",
    reference: "RFC 9110, Section 15.5.22",
    description:
      "The server refuses to handle the request over the current protocol but may do so after the client switches. Its Upgrade header names the protocols it requires.",
  },
  {
    code: 428,
    reason: "Precondition Required",
    reference: "RFC 6585",
    description:
      "The origin server insists that the request be conditional, carrying If-Match for instance, so that clients cannot silently overwrite each other's changes.",
  },
  {
    code: 429,
    reason: "Too Many Requests",
    reference: "RFC 6585",
    description:
      "The client has sent too many requests in a given time and is being rate limited. A Retry-After header may say how long to wait.",
  },
  {
    code: 431,
    reason: "Request Header Fields Too Large",
    reference: "RFC 6585",
    description:
      "The server will not process the request because one header field, or all of them together, are too large. The client may retry with a smaller header.",
  },
  {
    code: 451,
    reason: "Unavailable For Legal Reasons",
    reference: "RFC 7725",
    alsoKnownAs: ["Redirect (Microsoft Exchange ActiveSync)"],
    description:
      "Access to the resource is denied because of a legal demand, such as a court order or government censorship. The number nods to Ray Bradbury's novel Fahrenheit 451.",
  },
  {
    code: 500,
    reason: "Internal Server Error",
    reference: "RFC 9110, Section 15.6.1",
    description:
      "The server ran into an unexpected condition that kept it from fulfilling the request. It is the generic answer when no more specific server error fits.",
  },
  {
    code: 501,
    reason: "Not Implemented",
    reference: "RFC 9110, Section 15.6.2",
    description:
      "The server does not support the functionality the request needs, such as a method it does not recognise for any resource.",
  },
  {
    code: 502,
    reason: "Bad Gateway",
    reference: "RFC 9110, Section 15.6.3",
    description:
      "A server acting as a gateway or proxy got an invalid response from the upstream server it contacted.",
  },
  {
    code: 503,
    reason: "Service Unavailable",
    reference: "RFC 9110, Section 15.6.4",
    description:
      "The server cannot handle the request right now, because of overload or maintenance, and expects to recover. A Retry-After header may say when.",
  },
  {
    code: 504,
    reason: "Gateway Timeout",
    reference: "RFC 9110, Section 15.6.5",
    description:
      "A server acting as a gateway or proxy did not get a timely answer from the upstream server it needed.",
  },
  {
    code: 505,
    reason: "HTTP Version Not Supported",
    reference: "RFC 9110, Section 15.6.6",
    description:
      "The server does not support, or will not use, the major HTTP version of the request.",
  },
  {
    code: 506,
    reason: "Variant Also Negotiates",
    reference: "RFC 2295",
    description:
      "A server misconfiguration in transparent content negotiation: the chosen variant is itself set up to negotiate, which would go round in circles.",
  },
  {
    code: 507,
    reason: "Insufficient Storage",
    reference: "RFC 4918",
    description:
      "The WebDAV method could not be completed because the server cannot store what it needs to. The condition is expected to be temporary.",
  },
  {
    code: 508,
    reason: "Loop Detected",
    reference: "RFC 5842",
    alsoKnownAs: ["Resource Limit Is Reached (cPanel)"],
    description:
      "The server stopped a WebDAV operation because it found an infinite loop while working through a request with Depth: infinity.",
  },
  {
    code: 510,
    reason: "Not Extended",
    reference: "RFC 2774",
    registryStatus: "obsolete",
    description:
      "The request did not satisfy the policy for the resource under the HTTP Extension Framework of RFC 2774. That framework has been moved to Historic status, and the registry marks the code as obsoleted.",
  },
  {
    code: 511,
    reason: "Network Authentication Required",
    reference: "RFC 6585",
    description:
      "The client must authenticate to get network access, as with a captive portal on public Wi-Fi. It is meant for intercepting proxies, never for origin servers.",
  },
];

/**
 * Unofficial codes seen often enough to be worth naming, each with who uses it. Where a
 * vendor documents a code without a reason phrase (AWS 460, 463, 464), the phrase here is
 * descriptive and the description says so.
 */
export const UNOFFICIAL_STATUS_CODES: readonly UnofficialStatusCode[] = [
  {
    code: 218,
    reason: "This Is Fine",
    source: "Informal convention (often attributed to Apache HTTP Server)",
    description:
      "An informal catch-all said to let error bodies pass through a proxy untouched. Its link to the Apache HTTP Server is widely repeated but not backed by Apache's own documentation.",
  },
  {
    code: 419,
    reason: "Page Expired",
    source: "Laravel",
    description:
      "The Laravel framework answers with it when a form's CSRF token is missing or has expired, usually because the session timed out.",
  },
  {
    code: 420,
    reason: "Enhance Your Calm",
    source: "Twitter",
    alsoKnownAs: ["Method Failure (Spring Framework)"],
    description:
      "Version 1 of the Twitter Search and Trends API sent it to clients that were being rate limited. Later versions of the API use 429 instead.",
  },
  {
    code: 430,
    reason: "Shopify Security Rejection",
    source: "Shopify",
    alsoKnownAs: ["Request Header Fields Too Large (Shopify, deprecated)"],
    description:
      "Shopify answers with it when its security checks judge a request to be malicious. Shopify formerly used the code for rate limiting under the name Request Header Fields Too Large.",
  },
  {
    code: 440,
    reason: "Login Time-out",
    source: "Microsoft IIS",
    description:
      "Microsoft's IIS web server uses it to say that the client's session has expired and the user must log in again.",
  },
  {
    code: 444,
    reason: "No Response",
    source: "nginx",
    description:
      "A code for nginx configuration that makes the server close the connection without sending anything. Clients never receive it; it only shows up in the server's logs.",
  },
  {
    code: 449,
    reason: "Retry With",
    source: "Microsoft IIS",
    description:
      "Microsoft's IIS web server uses it when the request lacks information the server needs, asking the client to retry once it has supplied it.",
  },
  {
    code: 450,
    reason: "Blocked by Windows Parental Controls",
    source: "Microsoft",
    description: "Windows uses it when Parental Controls block access to the requested web page.",
  },
  {
    code: 460,
    reason: "Client Closed Connection",
    source: "AWS Elastic Load Balancing",
    description:
      "An AWS load balancer records it when the client closed the connection before the load balancer's idle timeout, often because the client's own timeout was shorter. AWS documents the code without a reason phrase, so this one is descriptive.",
  },
  {
    code: 463,
    reason: "Too Many Forwarded Addresses",
    source: "AWS Elastic Load Balancing",
    description:
      "An AWS load balancer returns it when the request's X-Forwarded-For header lists more than 30 IP addresses. AWS documents the code without a reason phrase, so this one is descriptive.",
  },
  {
    code: 464,
    reason: "Incompatible Protocol Versions",
    source: "AWS Elastic Load Balancing",
    description:
      "An AWS load balancer returns it when the request's protocol does not match the target group's protocol version, such as a gRPC request for an HTTP/1.1 target group. AWS documents the code without a reason phrase, so this one is descriptive.",
  },
  {
    code: 494,
    reason: "Request Header Too Large",
    source: "nginx",
    description:
      "nginx logs it when the request header or one of its lines is too large. Unless an error_page rule handles it, the client receives a 400 response.",
  },
  {
    code: 495,
    reason: "SSL Certificate Error",
    source: "nginx",
    description:
      "nginx logs it when the client's TLS certificate failed verification. Unless an error_page rule handles it, the client receives a 400 response.",
  },
  {
    code: 496,
    reason: "SSL Certificate Required",
    source: "nginx",
    description:
      "nginx logs it when a client certificate is required but none was presented. Unless an error_page rule handles it, the client receives a 400 response.",
  },
  {
    code: 497,
    reason: "HTTP Request Sent to HTTPS Port",
    source: "nginx",
    description:
      "nginx logs it when a plain HTTP request arrives on a port set up for HTTPS. Unless an error_page rule handles it, the client receives a 400 response.",
  },
  {
    code: 498,
    reason: "Invalid Token",
    source: "Esri ArcGIS Server",
    description:
      "ArcGIS Server returns it when the access token sent with the request has expired or is otherwise invalid.",
  },
  {
    code: 499,
    reason: "Client Closed Request",
    source: "nginx",
    alsoKnownAs: ["Token Required (Esri ArcGIS Server)"],
    description:
      "nginx logs it when the client closed the connection before the server could send its response. The client never sees it, having already gone.",
  },
  {
    code: 509,
    reason: "Bandwidth Limit Exceeded",
    source: "Apache HTTP Server bandwidth modules, cPanel",
    description:
      "Shared hosting sends it when a site has used up the bandwidth its administrator allows it.",
  },
  {
    code: 520,
    reason: "Web Server Returned an Unknown Error",
    source: "Cloudflare",
    description:
      "Cloudflare got an empty, unknown or unexpected response from the origin server behind it.",
  },
  {
    code: 521,
    reason: "Web Server Is Down",
    source: "Cloudflare",
    description:
      "The origin server refused Cloudflare's connection, because it is down or because a firewall blocks Cloudflare's addresses.",
  },
  {
    code: 522,
    reason: "Connection Timed Out",
    source: "Cloudflare",
    description: "Cloudflare timed out while trying to open a TCP connection to the origin server.",
  },
  {
    code: 523,
    reason: "Origin Is Unreachable",
    source: "Cloudflare",
    description:
      "Cloudflare could not reach the origin server at all, for instance because of a routing problem or a wrong DNS record.",
  },
  {
    code: 524,
    reason: "A Timeout Occurred",
    source: "Cloudflare",
    description:
      "Cloudflare connected to the origin server, but the origin did not send an HTTP response in time.",
  },
  {
    code: 525,
    reason: "SSL Handshake Failed",
    source: "Cloudflare",
    description: "Cloudflare could not complete a TLS handshake with the origin server.",
  },
  {
    code: 526,
    reason: "Invalid SSL Certificate",
    source: "Cloudflare",
    description:
      "Cloudflare could not validate the origin server's TLS certificate while strict certificate checking was on.",
  },
  {
    code: 527,
    reason: "Railgun Error",
    source: "Cloudflare",
    description:
      "Signalled a broken connection between Cloudflare and the origin's Railgun listener. Cloudflare has retired Railgun, so the code is obsolete.",
  },
  {
    code: 529,
    reason: "Site is overloaded",
    source: "Qualys SSL Labs API",
    alsoKnownAs: ["Overloaded (Anthropic API)"],
    description:
      "The Qualys SSL Labs server-testing API uses it to say that the service is overloaded and cannot take the request now.",
  },
  {
    code: 530,
    reason: "Origin Unavailable",
    source: "Cloudflare",
    alsoKnownAs: ["Origin DNS Error (Cloudflare)", "Site is frozen (Pantheon)"],
    description:
      "Cloudflare sends it together with a 1xxx error page, most often when it cannot resolve or reach the origin host.",
  },
  {
    code: 561,
    reason: "Unauthorized",
    source: "AWS Elastic Load Balancing",
    description:
      "An AWS Application Load Balancer returns it when a listener rule authenticates users and the identity provider answered with an error.",
  },
  {
    code: 598,
    reason: "Network read timeout error",
    source: "Informal convention (some HTTP proxies)",
    description:
      "Some HTTP proxies send it to the client when reading from the server behind them timed out.",
  },
  {
    code: 599,
    reason: "Network Connect Timeout Error",
    source: "Informal convention (some HTTP proxies)",
    description:
      "Some HTTP proxies send it to the client when opening a connection to the server behind them timed out.",
  },
];

/**
 * The category of a status code, by its first digit (RFC 9110, Section 15).
 *
 * @example
 * categoryOf(404); // "Client Error"
 */
export function categoryOf(code: number): Category {
  const category = CATEGORIES[Math.floor(code / 100) - 1];
  if (category === undefined) throw new RangeError(`${code} is not a three-digit status code`);
  return category;
}

/** What a client should assume of an unassigned code: the x00 code of its class. */
const UNASSIGNED_DESCRIPTIONS: Record<Category, string> = {
  Informational:
    "This code is unassigned in the IANA registry and not among the well-known unofficial codes. A client should treat it as an interim response, like 100 (Continue).",
  Success:
    "This code is unassigned in the IANA registry and not among the well-known unofficial codes. A client should treat it as a generic success, like 200 (OK), but not cache it.",
  Redirection:
    "This code is unassigned in the IANA registry and not among the well-known unofficial codes. A client should treat it as a generic redirection, like 300 (Multiple Choices), but not cache it.",
  "Client Error":
    "This code is unassigned in the IANA registry and not among the well-known unofficial codes. A client should treat it as a generic client error, like 400 (Bad Request), but not cache it.",
  "Server Error":
    "This code is unassigned in the IANA registry and not among the well-known unofficial codes. A client should treat it as a generic server error, like 500 (Internal Server Error), but not cache it.",
};

/**
 * The description given to a code in range that nobody has assigned.
 *
 * @example
 * unassignedDescription(299); // "This code is unassigned … like 200 (OK), but not cache it."
 */
export function unassignedDescription(code: number): string {
  return UNASSIGNED_DESCRIPTIONS[categoryOf(code)];
}
