# Drives PowerShell's own completion (TabExpansion2) with cip's completer, for
# test/e2e/completion-powershell.test.ts: one pwsh for all its cases, since pwsh takes a second to start.
# In:  $env:CIP_PS_CASES, a JSON file: [{ "line": "cip env get ev", "run": true }, ...]
# Out: $env:CIP_PS_RESULT, a JSON file: { "cases": [{ "line", "matches": [{ "text", "list", "type", "tip" }],
#      "runs": [{ "line", "output": [...] }] }], "planted": 0 }
# The completer is loaded as the README says: cip completion powershell | Out-String | Invoke-Expression.
# Each case is completed at the end of its line. A case with "run" is then typed as each match completes it and
# run, as Enter would run it, with the cip on PATH printing its arguments (CIP_ECHO_ARGS). `id` is a function
# that counts its calls: nothing a name holds may call it, when completed or when run.
$ErrorActionPreference = 'Stop'
$global:planted = 0
function global:id { $global:planted++; 'PLANTED' }

cip completion powershell | Out-String | Invoke-Expression

$cases = @(Get-Content -Raw -LiteralPath $env:CIP_PS_CASES | ConvertFrom-Json)
$completed = foreach ($case in $cases) {
    $line = [string] $case.line
    $completion = TabExpansion2 -inputScript $line -cursorColumn $line.Length
    [pscustomobject] @{ case = $case; completion = $completion }
}

$env:CIP_ECHO_ARGS = '1'
$results = foreach ($entry in $completed) {
    $line = [string] $entry.case.line
    $completion = $entry.completion
    $found = @(foreach ($match in $completion.CompletionMatches) {
        [pscustomobject] @{ text = $match.CompletionText; list = $match.ListItemText; type = [string] $match.ResultType; tip = $match.ToolTip }
    })
    $runs = @(if ($entry.case.run) {
        foreach ($match in $completion.CompletionMatches) {
            $typed = $line.Substring(0, $completion.ReplacementIndex) + $match.CompletionText +
                $line.Substring($completion.ReplacementIndex + $completion.ReplacementLength)
            $output = @(try { Invoke-Expression $typed 2>&1 | ForEach-Object { [string] $_ } } catch { "ERROR<$_>" })
            [pscustomobject] @{ line = $typed; output = $output }
        }
    })
    [pscustomobject] @{ line = $line; matches = $found; runs = $runs }
}

$json = ConvertTo-Json -Depth 6 -InputObject ([pscustomobject] @{ cases = @($results); planted = $global:planted })
[System.IO.File]::WriteAllText($env:CIP_PS_RESULT, $json, [System.Text.UTF8Encoding]::new($false))
