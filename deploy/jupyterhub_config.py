"""JupyterHub for one course: learners log in with their system accounts and work in JupyterLab, whose
Assignment List (nbgrader's) fetches lessons from the exchange, submits them and fetches feedback.

Run it as root from the hub's environment, which `make hub-env` builds (HUB_ENV, /opt/graphkit-hub):

    /opt/graphkit-hub/bin/jupyterhub -f deploy/jupyterhub_config.py

Every value a site changes comes from the environment, with the default after it; tests/hub/ starts the hub
with this file, and docs/jupyterhub.md quotes it whole.
"""

import os
import sys

c = get_config()  # noqa: F821 -- JupyterHub provides get_config when it loads this file

env = os.environ.get
HUB_ENV = sys.prefix  # the environment this hub runs from; every learner's server runs from it too
STATE = env("GRAPHKIT_HUB_STATE", "/srv/graphkit-hub")  # the hub's database, cookie secret and proxy's pid
EXCHANGE = env("GRAPHKIT_EXCHANGE", "/srv/nbgrader/exchange")  # nbgrader's exchange (deploy/nbgrader_config.py)

# Loopback only: put a TLS-terminating web server in front to serve a class.
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(env("GRAPHKIT_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(env("GRAPHKIT_HUB_API_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env('GRAPHKIT_HUB_PROXY_API_PORT', '8001')}"
c.ConfigurableHTTPProxy.command = [os.path.join(HUB_ENV, "node", "node_modules", ".bin", "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = os.path.join(STATE, "proxy.pid")
c.JupyterHub.db_url = "sqlite:///" + os.path.join(STATE, "jupyterhub.sqlite")
c.JupyterHub.cookie_secret_file = os.path.join(STATE, "jupyterhub_cookie_secret")

# Accounts: the machine's own users, with their passwords (PAM). Members of the course's group may log in.
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.allowed_groups = {env("GRAPHKIT_HUB_GROUP", "graphkit-learners")}

# Each learner's JupyterLab runs as that learner, in their home folder, from the hub's environment (readable
# and executable by every account, unlike a checkout's .venv under /root), and is told where the exchange is.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [os.path.join(HUB_ENV, "bin", "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {"PATH": os.path.join(HUB_ENV, "bin") + ":/usr/bin:/bin", "GRAPHKIT_EXCHANGE": EXCHANGE}
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
