using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc;

namespace ReferenceApi;

public sealed record GatewayKeys(string ApiKey, string ReadOnlyApiKey, string SubscriptionKey, string EnterpriseId);

// Stands in front of the controllers the way Azure API Management and the service's own key check do: APIM
// knows the API's paths and checks the subscription key (its own JSON body), then the service checks the
// ApiKey, the EnterpriseId header and whether the key may write (ASP.NET ProblemDetails). The first failure
// answers. What the service's own checks answer is not public: these bodies are modelled, not observed.
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

        var match = ApiKeyScheme().Match(Single(context, "Authorization"));
        var apiKey = match.Success ? match.Groups[1].Value : null;
        var readOnly = apiKey == keys.ReadOnlyApiKey;
        if (apiKey != keys.ApiKey && !readOnly)
        {
            context.Response.Headers.WWWAuthenticate = "ApiKey";
            await Problem(context, 401, "The API key is invalid.");
            return;
        }

        var enterpriseId = Single(context, "EnterpriseId");
        if (!Guid.TryParseExact(enterpriseId, "D", out var enterprise))
        {
            await Validation(context, "EnterpriseId", "The EnterpriseId header must be a GUID.");
            return;
        }
        if (enterprise != Guid.Parse(keys.EnterpriseId))
        {
            await Problem(context, 403, "The API key has no access to this enterprise.");
            return;
        }
        if (readOnly && context.Request.Method is "POST" or "PUT" or "DELETE")
        {
            await Problem(context, 403, "The API key lacks sufficient permissions.");
            return;
        }
        await next(context);
    }

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
