using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.AspNetCore.Mvc;

namespace ReferenceApi;

public sealed record GatewayKeys(string ApiKey, string ReadOnlyApiKey, string SubscriptionKey, string EnterpriseId, string TokenSecret);

// Stands in front of the controllers the way Azure API Management and the service's own key check do: APIM
// knows the API's paths and checks the subscription key (its own JSON body), then the service checks the
// credential (an ApiKey with the EnterpriseId header, or a Bearer token) and whether it may write (ASP.NET
// ProblemDetails). The first failure answers. What the service's own checks answer is not public: these bodies
// are modelled, not observed; the Bearer challenge is the framework's own.
public sealed partial class ApiManagement(RequestDelegate next, GatewayKeys keys, IProblemDetailsService problems)
{
    private const string MissingKey =
        "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.";
    private const string InvalidKey =
        "Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.";
    private const string Challenge =
        "AzureApiManagementKey realm=\"https://api.copyl.com/ms\",name=\"Ocp-Apim-Subscription-Key\",type=\"header\"";

    // The operations APIM publishes: the collection, one item, and the anonymous ping.
    [GeneratedRegex("^/ms/environments(/[^/]+)?/?$", RegexOptions.IgnoreCase)]
    private static partial Regex EnvironmentsPath();

    // The token's claims (the sandbox's, src/sandbox/token.ts): the enterprise it acts in, and an optional scope.
    private const string EnterpriseClaim = "enterpriseId";
    private const string ScopeClaim = "scope";
    private const string WriteScope = "environments.write";

    [GeneratedRegex(@"^ApiKey\s+(.*)$", RegexOptions.IgnoreCase)]
    private static partial Regex ApiKeyScheme();

    public async Task InvokeAsync(HttpContext context)
    {
        var path = context.Request.Path.Value ?? "";
        if (string.Equals(path, "/ms/ping", StringComparison.OrdinalIgnoreCase))
        {
            await next(context);
            return;
        }
        if (!EnvironmentsPath().IsMatch(path))
        {
            await Apim(context, 404, "Resource not found");
            return;
        }

        var subscriptionKey = Single(context, "Ocp-Apim-Subscription-Key");
        if (subscriptionKey == "")
        {
            await Apim(context, 401, MissingKey, Challenge);
            return;
        }
        if (subscriptionKey != keys.SubscriptionKey)
        {
            await Apim(context, 401, InvalidKey, Challenge);
            return;
        }

        var authorization = Single(context, "Authorization");
        // The JWT bearer handler's own test for its scheme: the word in any case, then one space.
        var refused = authorization.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase)
            ? await RefuseToken(context)
            : await RefuseApiKey(context, authorization);
        if (!refused) await next(context);
    }

    // The ApiKey with the EnterpriseId header. True when it has answered the request with a refusal.
    private async Task<bool> RefuseApiKey(HttpContext context, string authorization)
    {
        var match = ApiKeyScheme().Match(authorization);
        var apiKey = match.Success ? match.Groups[1].Value : null;
        var readOnly = apiKey == keys.ReadOnlyApiKey;
        if (apiKey != keys.ApiKey && !readOnly)
        {
            context.Response.Headers.WWWAuthenticate = "ApiKey";
            await Problem(context, 401, "The API key is invalid.");
            return true;
        }

        var enterpriseId = Single(context, "EnterpriseId");
        if (!Guid.TryParseExact(enterpriseId, "D", out var enterprise))
        {
            await Validation(context, "EnterpriseId", "The EnterpriseId header must be a GUID.");
            return true;
        }
        if (enterprise != Guid.Parse(keys.EnterpriseId))
        {
            await Problem(context, 403, "The API key has no access to this enterprise.");
            return true;
        }
        if (readOnly && IsWrite(context))
        {
            await Problem(context, 403, "The API key lacks sufficient permissions.");
            return true;
        }
        return false;
    }

    // A Bearer token, judged by ASP.NET Core's JWT bearer handler (configured in Program.cs): a token it refuses
    // gets the handler's own challenge, 401 with no body and the reason in WWW-Authenticate. A valid token names
    // its enterprise in a claim; an EnterpriseId header beside it must name the same one. A token with a scope
    // claim may write only with the write scope.
    private async Task<bool> RefuseToken(HttpContext context)
    {
        var result = await context.AuthenticateAsync(JwtBearerDefaults.AuthenticationScheme);
        if (!result.Succeeded || result.Principal is not { } user)
        {
            await context.ChallengeAsync(JwtBearerDefaults.AuthenticationScheme);
            return true;
        }

        var header = Single(context, "EnterpriseId");
        var requested = Guid.Empty;
        if (header != "" && !Guid.TryParseExact(header, "D", out requested))
        {
            await Validation(context, "EnterpriseId", "The EnterpriseId header must be a GUID.");
            return true;
        }
        var claimed = Guid.TryParseExact(user.FindFirst(EnterpriseClaim)?.Value, "D", out var enterprise);
        if (!claimed || enterprise != Guid.Parse(keys.EnterpriseId) || (header != "" && requested != enterprise))
        {
            await Problem(context, 403, "The token has no access to this enterprise.");
            return true;
        }
        var scopes = user.FindAll(ScopeClaim).SelectMany(claim => claim.Value.Split(' ')).ToList();
        var mayWrite = !user.HasClaim(claim => claim.Type == ScopeClaim) || scopes.Contains(WriteScope);
        if (!mayWrite && IsWrite(context))
        {
            await Problem(context, 403, "The token lacks sufficient permissions.");
            return true;
        }
        context.User = user;
        return false;
    }

    private static bool IsWrite(HttpContext context) => context.Request.Method is "POST" or "PUT" or "DELETE";

    // A header given once; a missing or repeated one counts as absent.
    private static string Single(HttpContext context, string name) =>
        context.Request.Headers[name] is { Count: 1 } values ? values[0] ?? "" : "";

    private static Task Apim(HttpContext context, int status, string message, string? challenge = null)
    {
        context.Response.StatusCode = status;
        if (challenge != null) context.Response.Headers.WWWAuthenticate = challenge;
        return context.Response.WriteAsJsonAsync(new { statusCode = status, message });
    }

    private async Task Problem(HttpContext context, int status, string detail)
    {
        context.Response.StatusCode = status;
        await problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ProblemDetails { Status = status, Detail = detail },
        });
    }

    private async Task Validation(HttpContext context, string field, string message)
    {
        context.Response.StatusCode = 400;
        await problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ValidationProblemDetails(new Dictionary<string, string[]> { [field] = [message] })
            {
                Status = 400,
            },
        });
    }
}
