"""(being written)"""

app_name = "battles"
urlpatterns: list[object] = []
