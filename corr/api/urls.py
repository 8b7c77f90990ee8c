from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import download_views, nightly_views, views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("users/", views.UsersView.as_view(), name="api-users"),
    path("users/me/", views.MeView.as_view(), name="api-me"),
    path("users/me/calendar/rotate/", download_views.MyCalendarRotateView.as_view(), name="api-me-calendar-rotate"),
    path("tournaments/", views.TournamentsView.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", views.TournamentView.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/calendar/", download_views.TournamentCalendarView.as_view(),
         name="api-tournament-calendar"),
    path("tournaments/<int:tournament_id>/calendar/rotate/", download_views.TournamentCalendarRotateView.as_view(),
         name="api-tournament-calendar-rotate"),
    path("games/", views.GamesView.as_view(), name="api-games"),
    path("games/<int:game_id>/", views.GameView.as_view(), name="api-game"),
    path("games/<int:game_id>/events/", views.GameEventsView.as_view(), name="api-game-events"),
    path("games/<int:game_id>/history/", views.GameHistoryView.as_view(), name="api-game-history"),
    path("games/<int:game_id>/export/<str:format>/", download_views.GameExportView.as_view(), name="api-game-export"),
    path("games/<int:game_id>/moves/", views.MovesView.as_view(), name="api-moves"),
    path("games/<int:game_id>/receipts/", views.ReceiptsView.as_view(), name="api-receipts"),
    path("games/<int:game_id>/notices/", views.NoticesView.as_view(), name="api-notices"),
    path("games/<int:game_id>/penalties/", views.PenaltiesView.as_view(), name="api-penalties"),
    path("games/<int:game_id>/delays/", views.DelaysView.as_view(), name="api-delays"),
    path("games/<int:game_id>/start-notices/", views.StartNoticesView.as_view(), name="api-start-notices"),
    path("games/<int:game_id>/corrections/", views.CorrectionsView.as_view(), name="api-corrections"),
    path("games/<int:game_id>/withdrawals/", views.WithdrawalsView.as_view(), name="api-withdrawals"),
    path("games/<int:game_id>/result/", views.ResultView.as_view(), name="api-result"),
    path("games/<int:game_id>/reopen/", views.ReopenView.as_view(), name="api-reopen"),
    path("games/<int:game_id>/special-leave/", views.SpecialLeaveView.as_view(), name="api-special-leave"),
    path("leaves/", views.LeavesView.as_view(), name="api-leaves"),
    path("leaves/<int:leave_id>/", views.LeaveView.as_view(), name="api-leave"),
    path("reports/nightly/", nightly_views.NightlyReportsView.as_view(), name="api-nightly-reports"),
    path("overstep-cases/", nightly_views.OverstepCasesView.as_view(), name="api-overstep-cases"),
    path("overstep-cases/<int:case_id>/confirm/", nightly_views.OverstepConfirmView.as_view(),
         name="api-overstep-confirm"),
    path("overstep-cases/<int:case_id>/dismiss/", nightly_views.OverstepDismissView.as_view(),
         name="api-overstep-dismiss"),
]

