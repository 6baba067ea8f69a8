import time, pytest
from django.core.management import call_command
@pytest.mark.django_db
def test_t(client):
    call_command("load_catalogue", verbosity=0)
    for url in ["/catalogue/opr/ashen-concord/", "/catalogue/opr/thornwake-brood/", "/catalogue/designer/"]:
        client.get(url)
        t=time.perf_counter(); r=client.get(url); print(url, r.status_code, round(time.perf_counter()-t,3))
    t=time.perf_counter(); call_command("load_catalogue", verbosity=0); print("reload", round(time.perf_counter()-t,3))
