"""security_incident: confirmed, vector, containment, severity (low..critical)."""

from .common import pick, maybe

SI_ALERTS = {
    ("phishing", "yes"): ["User {u} entered credentials on a fake login page at {d}; a login from {ip} followed 10 minutes later and mailbox rules were created.",
                          "{u} opened an invoice attachment from a spoofed sender; the macro launched powershell and contacted {ip}."],
    ("phishing", "no"): ["{n} employees received an email imitating the payroll portal; the link was blocked by the mail gateway and nobody clicked.",
                         "Reported phishing email to {u}: fake password expiry notice, quarantined, no clicks recorded."],
    ("leaked_credential", "yes"): ["AWS access key AKIA{k} found in a public GitHub repository was used from {ip} to list and download S3 buckets.",
                                   "A database password posted in a public pastebin was used to log in from {ip}; 40,000 rows were exported."],
    ("leaked_credential", "no"): ["Secret scanner found an API token committed to a public repo 5 minutes ago; no use of the token in the logs yet.",
                                  "A Slack webhook URL appeared in a public gist; audit log shows no calls since."],
    ("vulnerable_service", "yes"): ["WAF logs show exploitation of the unpatched file upload endpoint on {h}; a web shell was written and executed.",
                                    "IDS: remote code execution against the outdated Confluence on {h}; a reverse shell to {ip} was opened."],
    ("vulnerable_service", "no"): ["Scanner from {ip} probed {h} for the Log4Shell vulnerability; all requests returned 404.",
                                   "Vulnerability scan lists an outdated OpenSSL on {h}; no exploitation attempts seen."],
    ("misconfiguration", "yes"): ["A storage bucket was public by mistake; access logs show {n} downloads of customer files from unknown IPs.",
                                  "An Elasticsearch cluster on {h} was left open to the internet and its index was read and deleted by {ip}."],
    ("misconfiguration", "no"): ["Config audit: security group on {h} allows SSH from 0.0.0.0/0; no logins from outside seen.",
                                 "A test bucket was found public during review; it holds only sample data and was never accessed."],
    ("insider", "yes"): ["Employee {u} downloaded the full customer list to a personal USB drive two days before leaving the company.",
                         "Admin {u} used their access to read the CEO's mailbox without a ticket or approval."],
    ("insider", "no"): ["DLP flagged {u} emailing a spreadsheet to their personal address; it contains only their own timesheet.",
                        "Unusual after-hours access by {u} to the finance share; the manager confirms it was approved overtime."],
}
SI_SOURCES = ["SIEM", "EDR", "CloudTrail", "GuardDuty", "mail gateway", "WAF", "DLP", "GitHub secret scanning"]


def security_incident(rng):
    vector = pick(rng, ["phishing", "leaked_credential", "vulnerable_service", "misconfiguration", "insider"])
    confirmed = "yes" if maybe(rng, 0.5) else "no"
    text = pick(rng, SI_ALERTS[(vector, confirmed)])
    text = (text.replace("{u}", pick(rng, ["j.smith", "a.khan", "mlopez", "p.novak", "svc-backup"]))
            .replace("{ip}", pick(rng, ["203.0.113.7", "198.51.100.23", "45.83.12.9", "185.220.101.4"]))
            .replace("{h}", pick(rng, ["web-prod-02", "wiki.internal", "api-gw-1", "db-replica-3"]))
            .replace("{d}", pick(rng, ["09:14 UTC", "02:40 UTC", "17:55 UTC"]))
            .replace("{n}", pick(rng, ["12", "37", "140", "5"])).replace("{k}", "".join(pick(rng, list("ABCDEFGHJKLMNPQRSTUVWXYZ234567")) for _ in range(8))))
    if confirmed == "yes":
        containment = {"phishing": "isolate_host" if "powershell" in text else "rotate_credentials", "leaked_credential": "rotate_credentials", "vulnerable_service": "isolate_host",
                       "misconfiguration": "page_team", "insider": "page_team"}[vector]
        severity = "critical" if vector in ("vulnerable_service", "misconfiguration") or "exported" in text else "high"
    else:
        containment = "rotate_credentials" if vector == "leaked_credential" else "monitor"
        severity = "moderate" if vector == "leaked_credential" else "low"
    if maybe(rng, 0.3):
        text = pick(rng, ["[ALERT] ", "ALERT: ", "sev? ", "auto-generated: "]) + text
    if maybe(rng, 0.2):
        text += " " + pick(rng, ["Ticket opened automatically.", "Rule: generic-anomaly-7.", "Analyst on call notified."])
    return {"alert": text, "source": pick(rng, SI_SOURCES)}, {
        "confirmed": confirmed, "vector": vector, "containment": containment, "severity": severity}
